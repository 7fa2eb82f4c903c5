package main

import (
	"runtime/debug"
	"testing"

	"github.com/zumba-dev/zumba/mcpserver"
)

func TestAppVersion(t *testing.T) {
	info := func(v string, settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/zumba-dev/zumba", Version: v}, Settings: settings}
	}
	cases := []struct {
		stamp string
		info  *debug.BuildInfo
		want  string
	}{
		{"1.2.3", info("v9.9.9"), "1.2.3"}, // the release script's stamp wins
		{"", info("v0.4.0"), "0.4.0"},      // go install ...@v0.4.0
		{"", info("v1.0.0-rc.1"), "1.0.0-rc.1"},
		{"", info("(devel)"), mcpserver.Version},
		{"", info("v0.0.0-20261203155539-6463a3b15e8c"), mcpserver.Version},
		{"", info("v0.3.1-0.20261203155539-6463a3b15e8c"), mcpserver.Version},
		{"", info("v0.3.0+dirty"), mcpserver.Version},
		{"", nil, mcpserver.Version},
	}
	for _, tc := range cases {
		var v string
		if tc.info != nil {
			v = tc.info.Main.Version
		}
		if got := appVersion(tc.stamp, tc.info); got != tc.want {
			t.Errorf("appVersion(%q, %q) = %q; want %q", tc.stamp, v, got, tc.want)
		}
	}
}

func TestAppCommit(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "6463a3b15e8c"}
	cases := []struct {
		stamp string
		info  *debug.BuildInfo
		want  string
	}{
		{"abc123", &debug.BuildInfo{Settings: []debug.BuildSetting{rev}}, "abc123"},
		{"", &debug.BuildInfo{Settings: []debug.BuildSetting{rev}}, "6463a3b15e8c"},
		{"", &debug.BuildInfo{Settings: []debug.BuildSetting{rev, {Key: "vcs.modified", Value: "true"}}}, "6463a3b15e8c-dirty"},
		{"", &debug.BuildInfo{}, "unknown"},
		{"", nil, "unknown"},
	}
	for i, tc := range cases {
		if got := appCommit(tc.stamp, tc.info); got != tc.want {
			t.Errorf("case %d: appCommit(%q) = %q; want %q", i, tc.stamp, got, tc.want)
		}
	}
}
