//! Module doc.
const std = @import("std");
const Allocator = std.mem.Allocator;

pub const max_len = 64;
var counter: u32 = 0;
threadlocal var tls: u8 = 0;

/// A point.
pub const Point = struct {
    x: i32,
    y: i32 = 0,

    pub const zero = Point{ .x = 0 };

    pub fn add(self: Point, other: Point) Point {
        return .{ .x = self.x + other.x, .y = self.y + other.y };
    }

    fn helper() void {}

    pub const Inner = struct {
        pub fn deep() void {}
    };
};

pub const Color = enum(u8) {
    red,
    green,
    pub fn isRed(c: Color) bool {
        return c == .red;
    }
};

const Value = union(enum) {
    int: i64,
    float: f64,
    pub fn format(v: Value) void {
        _ = v;
    }
};

pub const Handle = opaque {
    extern fn handle_close(h: *Handle) void;
};

const Error = error{ OutOfMemory, Overflow };

pub fn List(comptime T: type) type {
    return struct {
        const Self = @This();
        items: []T,
        pub fn append(self: *Self, item: T) !void {
            _ = item;
            _ = self;
        }
    };
}

export fn c_entry() callconv(.C) c_int {
    return 0;
}

extern "c" fn write(fd: c_int, buf: [*]const u8, n: usize) isize;

inline fn fast() void {}

pub fn main() !void {
    const local = 3;
    _ = local;
}

test "point add" {
    try std.testing.expect(true);
}

test Point {
}

test {
    _ = Point;
}

comptime {
    _ = c_entry;
}

usingnamespace @import("other.zig");

pub const json = @import("json.zig");
pub const Reader = std.io.Reader;
const Self = @This();

pub const Flags = packed struct(u8) {
    a: bool,
    _pad: u7 = 0,
};

const CHeader = extern struct {
    len: u32,
};

fn sort(items: []u32) void {
    const Context = struct {
        fn lessThan(_: void, a: u32, b: u32) bool {
            return a < b;
        }
    };
    std.mem.sort(u32, items, {}, Context.lessThan);
}

pub fn @"weird name"() void {}
