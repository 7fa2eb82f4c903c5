package main

// questions: eleven to thirteen per project. The comment above each says what the
// answer is; want holds the part of it both recipes must print. Line
// numbers in the grep recipes are those of the rg hit just before them (the
// projects are pinned).
var questions = []question{
	// Go: github.com/spf13/cobra v1.8.1.

	// Command.ExecuteC, command.go:1054-1139: finds the command for os.Args,
	// runs cmd.execute(flags) and prints the error and usage on failure.
	{proj: "go", ask: "where is ExecuteC defined and what does it do",
		want:  []string{"func (c *Command) ExecuteC() (cmd *Command, err error) {", "err = cmd.execute(flags)", "return cmd, err"},
		zumba: []string{"zumba read ExecuteC"},
		grep:  []string{`rg -n 'func .*ExecuteC\('`, "sed -n '1054,1153p' command.go"}},
	// Command's methods: Find, Execute, AddCommand, … in command.go. The
	// agent does not know the file: zumba finds it first, rg searches all
	// files, so grep's answer also lists the methods in flag_groups.go,
	// completions.go, … which the outline of command.go leaves out.
	{proj: "go", ask: "what methods does Command have",
		want:  []string{"Find", "AddCommand", "ExecuteC", "Flags"},
		zumba: []string{"zumba symbol Command", "zumba outline --name Command command.go"},
		grep:  []string{`rg -n 'func \(c \*Command\) '`}},
	// stripFlags is called by Command.Find (twice, in its closure) and by
	// TestStripFlags. The hit lines do not name their function, so the grep
	// recipe reads from 75 lines above the first hit in each file.
	{proj: "go", ask: "who calls stripFlags",
		want:  []string{"Find", "TestStripFlags", "747"},
		zumba: []string{"zumba refs stripFlags --group definition --code"},
		grep:  []string{"rg -nw stripFlags", "sed -n '657,756p' command.go", "sed -n '630,729p' command_test.go"}},
	// Command.Find, command.go:726-750: walks the tree with innerfind and
	// checks the leftover args with legacyArgs when Args is nil.
	{proj: "go", ask: "show me Command.Find",
		want:  []string{"func (c *Command) Find(args []string)", "legacyArgs(commandFound, stripFlags(a, commandFound))"},
		zumba: []string{"zumba read Command.Find"},
		grep:  []string{`rg -n 'func \(c \*Command\) Find\('`, "sed -n '728,827p' command.go"}},
	// args.go: PositionalArgs, legacyArgs, NoArgs, OnlyValidArgs,
	// ArbitraryArgs, MinimumNArgs, MaximumNArgs, ExactArgs, RangeArgs,
	// MatchAll, ExactValidArgs.
	{proj: "go", ask: "what does args.go contain",
		want:  []string{"PositionalArgs", "legacyArgs", "MatchAll", "RangeArgs", "ExactValidArgs"},
		zumba: []string{"zumba outline args.go"},
		grep:  []string{"rg -n '^(func|type|var|const) ' args.go"}},
	// Command.ValidateFlagGroups, flag_groups.go:79-105: checks the
	// required-together, one-required and mutually-exclusive groups.
	{proj: "go", ask: "show me ValidateFlagGroups",
		want:  []string{"func (c *Command) ValidateFlagGroups() error {", "validateExclusiveFlagGroups(mutuallyExclusiveGroupStatus)"},
		zumba: []string{"zumba read ValidateFlagGroups"},
		grep:  []string{`rg -n 'func .*ValidateFlagGroups\('`, "sed -n '81,180p' flag_groups.go"}},
	// MarkFlagsMutuallyExclusive in Go code: its definition and three calls
	// in tests (completions_test.go, flag_groups_test.go twice).
	{proj: "go", ask: "where is MarkFlagsMutuallyExclusive used in code",
		want:  []string{"completions_test.go:3062", "flag_groups_test.go:183"},
		zumba: []string{"zumba refs MarkFlagsMutuallyExclusive --code"},
		grep:  []string{"rg -nw MarkFlagsMutuallyExclusive -g '*.go'"}},
	// PositionalArgs is func(cmd *Command, args []string) error; NoArgs,
	// OnlyValidArgs, ArbitraryArgs are ones, and MinimumNArgs, MaximumNArgs,
	// ExactArgs, RangeArgs, MatchAll return one.
	{proj: "go", ask: "what is PositionalArgs and which functions return one",
		want:  []string{"type PositionalArgs func(cmd *Command, args []string) error", "ExactArgs", "RangeArgs", "MatchAll"},
		zumba: []string{"zumba read PositionalArgs", "zumba refs PositionalArgs --group definition --code"},
		grep:  []string{"rg -nw PositionalArgs -g '*.go'"}},
	// InitDefaultHelpFlag adds -h/--help unless a "help" flag exists;
	// InitDefaultHelpCmd adds the "help [command]" subcommand.
	{proj: "go", ask: "how are the default help flag and help command set up",
		want:  []string{"func (c *Command) InitDefaultHelpFlag() {", "func (c *Command) InitDefaultHelpCmd() {", "c.RemoveCommand(c.helpCommand)"},
		zumba: []string{"zumba read --names Command.InitDefaultHelpFlag,Command.InitDefaultHelpCmd"},
		grep:  []string{`rg -n 'func \(c \*Command\) InitDefaultHelp(Flag|Cmd)\('`, "sed -n '1188,1287p' command.go"}},
	// Three calls of ExactArgs in Go code: grep's are three `Args:
	// ExactArgs(2),` in command_test.go; zumba's first "example" is the
	// definition itself, then args.go:130 and args_test.go:285.
	{proj: "go", ask: "three examples of a call to ExactArgs",
		want:  []string{"ExactArgs("},
		zumba: []string{"zumba refs ExactArgs --code --limit 3"},
		grep:  []string{"rg -n 'ExactArgs\\(' -g '*.go' | head -3"}},
	// Command.ParseFlags, command.go: merges the persistent flags, parses
	// args with c.Flags().Parse and records the error in flagErrorBuf.
	{proj: "go", ask: "how does a command parse its flags (ParseFlags)",
		want:  []string{"func (c *Command) ParseFlags(args []string) error {", "err := c.Flags().Parse(args)"},
		zumba: []string{"zumba read ParseFlags"},
		grep:  []string{`rg -n 'func .*ParseFlags\('`, "sed -n '1830,1929p' command.go"}},
	// The exported methods of Command, how many, with their signatures
	// (issue 47): 98 in command.go, of 113. grep lists them and counts them
	// with -c; zumba's outline filters, shows the signatures and counts.
	{proj: "go", ask: "how many exported methods does Command have, signatures",
		want:  []string{"98", "func (c *Command) ParseFlags(args []string) error"},
		zumba: []string{"zumba outline --name Command --exported --signatures command.go"},
		grep:  []string{`rg -n '^func \(c \*Command\) [A-Z]' command.go`, `rg -c '^func \(c \*Command\) [A-Z]' command.go`}},

	// Go, a git copy of cobra with one line of stripFlags edited
	// (commands := make([]string, 0, len(args))): the edit touches
	// stripFlags, which Command.Find calls, which ExecuteC,
	// InitDefaultHelpCmd, initCompleteCmd and getCompletions call. grep
	// reads the diff, the uses of stripFlags, the functions around them,
	// the calls of .Find( and the functions around those.
	{proj: "goedit", ask: "what did my edit change, and who calls the callers",
		want:  []string{"stripFlags", "Find", "ExecuteC", "InitDefaultHelpCmd", "initCompleteCmd", "getCompletions"},
		zumba: []string{"zumba changes --depth 2"},
		grep: []string{"git diff -U0", "rg -nw stripFlags", "sed -n '657,756p' command.go", "sed -n '630,729p' command_test.go",
			`rg -n '\.Find\(' -g '*.go'`, "sed -n '1017,1116p' command.go", "sed -n '1170,1269p' command.go",
			"sed -n '187,286p' completions.go", "sed -n '2687,2786p' command_test.go",
			"sed -n '2430,2529p' completions_test.go", "sed -n '2330,2429p' completions_test.go"}},

	// TypeScript: rxjs 7.8.1, src/.

	// switchMap, internal/operators/switchMap.ts: overloads at 8-21, the
	// implementation at 86-133, which unsubscribes the previous inner
	// subscriber and subscribes innerFrom(project(value, index)).
	{proj: "ts", ask: "where is switchMap defined and what does it do",
		want:  []string{"innerSubscriber?.unsubscribe();", "innerFrom(project(value, outerIndex)).subscribe("},
		zumba: []string{"zumba read switchMap"},
		grep:  []string{`rg -n 'export function switchMap\b'`, "sed -n '86,185p' internal/operators/switchMap.ts"}},
	// Subscriber's members: create, constructor, next, error, complete,
	// unsubscribe, _next, _error, _complete.
	{proj: "ts", ask: "what members does class Subscriber have",
		want:  []string{"unsubscribe", "_complete", "create"},
		zumba: []string{"zumba symbol Subscriber", "zumba outline --name Subscriber internal/Subscriber.ts"},
		grep:  []string{`rg -n 'class Subscriber\b'`, "sed -n '21,120p' internal/Subscriber.ts", "sed -n '121,220p' internal/Subscriber.ts"}},
	// createErrorClass builds AjaxError, TimeoutError, EmptyError,
	// NotFoundError, SequenceError, ArgumentOutOfRangeError,
	// ObjectUnsubscribedError, UnsubscriptionError, …
	{proj: "ts", ask: "who calls createErrorClass",
		want:  []string{"AjaxError", "TimeoutError", "EmptyError", "UnsubscriptionError"},
		zumba: []string{"zumba refs createErrorClass --group definition --code"},
		grep:  []string{"rg -nw createErrorClass"}},
	// Observable.subscribe: two overloads, then the implementation at
	// 213-239, which wraps the observer in a SafeSubscriber and calls
	// _trySubscribe through errorContext.
	{proj: "ts", ask: "show me Observable.subscribe",
		want:  []string{"const subscriber = isSubscriber(observerOrNext) ? observerOrNext : new SafeSubscriber(observerOrNext, error, complete);", "return subscriber;"},
		zumba: []string{"zumba read Observable.subscribe"},
		grep:  []string{`rg -n '^\s+subscribe\(' internal/Observable.ts`, "sed -n '213,312p' internal/Observable.ts"}},
	// internal/Subject.ts: class Subject (observers, closed, isStopped,
	// next, error, complete, unsubscribe, observed, asObservable, …) and
	// class AnonymousSubject.
	{proj: "ts", ask: "what does internal/Subject.ts contain",
		want:  []string{"AnonymousSubject", "asObservable", "_subscribe"},
		zumba: []string{"zumba outline internal/Subject.ts"},
		grep:  []string{"sed -n '1,100p' internal/Subject.ts", "sed -n '101,200p' internal/Subject.ts"}},
	// map and filter: both operate() with a subscriber that calls project /
	// predicate with (value, index++).
	{proj: "ts", ask: "show me map and filter",
		want:  []string{"subscriber.next(project.call(thisArg, value, index++))", "predicate.call(thisArg, value, index++) && subscriber.next(value)"},
		zumba: []string{"zumba read --names map,filter"},
		grep:  []string{`rg -n 'export function (map|filter)\b'`, "sed -n '48,147p' internal/operators/map.ts", "sed -n '61,160p' internal/operators/filter.ts"}},
	// OperatorFunction<T, R> is a UnaryFunction<Observable<T>, Observable<R>>.
	{proj: "ts", ask: "what is OperatorFunction",
		want:  []string{"OperatorFunction<T, R> extends UnaryFunction<Observable<T>, Observable<R>>"},
		zumba: []string{"zumba read OperatorFunction"},
		grep:  []string{`rg -n 'interface OperatorFunction\b'`}},
	// Three calls of timer(): interval.ts:57 and two more. A plain
	// `rg '\btimer\('` starts with timer.ts's own doc comment, and the other
	// files' first hits are doc examples, so the agent leaves out comment
	// lines and timer.ts.
	{proj: "ts", ask: "three examples of a call to timer",
		want:  []string{"return timer(period, period, scheduler);"},
		zumba: []string{"zumba refs timer --code --limit 3"},
		grep:  []string{"rg -n '^\\s*[^*/\\s].*\\btimer\\(' -g '!**/timer.ts' | head -3"}},
	// isFunction in code: Notification.accept, isObserver, the Subscriber
	// constructors, Subscription.unsubscribe, fromEvent, tap, … (29 files).
	{proj: "ts", ask: "which functions use isFunction in code",
		want:  []string{"isFunction((nextOrObserver as any)?.next)", "internal/operators/tap.ts", "isFunction(source?.lift)"},
		zumba: []string{"zumba refs isFunction --group definition --code"},
		grep:  []string{"rg -nw isFunction"}},
	// mergeMap, an overloaded operator (three signatures and an
	// implementation), is used in code by concatMap, delayWhen,
	// fromEvent, joinAllInternals, mergeAll, mergeMapTo and flatMap, and
	// re-exported by index.ts and operators/index.ts (issue 47). grep's
	// hits do not name their functions: one read around each.
	{proj: "ts", ask: "which functions use the overloaded mergeMap",
		want:  []string{"concatMap", "delayWhen", "fromEvent", "joinAllInternals", "mergeAll", "mergeMapTo", "flatMap"},
		zumba: []string{"zumba refs mergeMap --group definition --code"},
		grep: []string{"rg -nw mergeMap", "sed -n '201,300p' internal/observable/fromEvent.ts", "sed -n '1,100p' internal/operators/mergeMapTo.ts",
			"sed -n '8,107p' internal/operators/concatMap.ts", "sed -n '1,100p' internal/operators/mergeAll.ts",
			"sed -n '1,100p' internal/operators/joinAllInternals.ts", "sed -n '27,126p' internal/operators/delayWhen.ts"}},
	// Subscription.add, internal/Subscription.ts:120-137: runs the teardown
	// at once when closed, else stores it in _finalizers.
	{proj: "ts", ask: "show me Subscription.add",
		want:  []string{"add(teardown: TeardownLogic): void {", "(this._finalizers = this._finalizers ?? []).push(teardown);"},
		zumba: []string{"zumba read Subscription.add"},
		grep:  []string{`rg -n '^\s+add\(' internal/Subscription.ts`, "sed -n '120,219p' internal/Subscription.ts"}},
}
