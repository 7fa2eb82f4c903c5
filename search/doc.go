// Package search owns the project: resolving the paths tools are given
// (never outside the project folder), walking its files under the ignore
// rules, and finding definitions and references. It returns results
// (definitions, lines, how many files were searched); mcpserver's tools
// print them.
//
// The pieces follow ripgrep's seams, each in its own file:
//
//   - walk.go and ignore.go: Root.Walk lists the files the search covers as
//     Entry values (path, size, modification time, inode), sorted by path.
//   - read.go: a Source gives a listed file's bytes; Root is the one that
//     reads the disk, skipping binary files.
//   - glob.go: PathFilter, the path argument's globs (the only user of
//     doublestar).
//   - word.go: WordScanner, whole-word matching over bytes.
//   - refs.go and symbol.go: References and Symbols take a file list and a
//     Source, so an index can narrow the candidate files and a cache can
//     stand in for the disk.
//   - searcher.go: Searcher, the searches the tools ask for, answered by
//     Root from the files and by Index from what it keeps.
//   - index.go: Index, the project index the server answers from.
//
// # What the search covers
//
// Every regular file under the project folder, except:
//
//  1. the .git folder (and any entry named .git, at any depth);
//  2. what the ignore rules exclude, decided as git does. The rules come
//     from each .gitignore inside the project and from the project's
//     .git/info/exclude (files outside the project, such as a parent
//     folder's .gitignore or the user's global excludes file, are never
//     read). For a path, the .gitignore of its own folder is asked first,
//     then its parent folders' up to the project folder, then
//     .git/info/exclude; the first file with a matching pattern decides,
//     and within a file the last matching pattern wins ("!" re-includes).
//     A folder that is excluded is not entered, so nothing below it can be
//     re-included. Patterns are git's: "#" comments, "\#" and "\!"
//     escapes, unescaped trailing spaces dropped, a trailing "/" for
//     folders only, a "/" at the start or in the middle anchors the pattern
//     to its .gitignore's folder, otherwise it matches a name at any depth;
//     "*", "?", "[...]" do not match "/", and "**" matches across folders.
//     The rules apply whether or not the project is a git repository;
//     tracked files are not treated specially;
//  3. files over MaxFileSize (512 KiB), usually generated;
//  4. binary files: a NUL byte in the first 8 KiB (checked when read);
//  5. anything reached through a symbolic link that leaves the project,
//     and dangling links. Links that stay inside, absolute or relative,
//     are followed; os.Root enforces the boundary. Each real folder is
//     entered once (by device and inode): under its own path, or else
//     under the first link to it in path order, which ends loops and
//     keeps links from multiplying the tree. A link to a file is listed
//     as a file of its own.
//
// Files and folders that cannot be read are skipped.
//
// # The index
//
// Root.Symbols and Root.References walk and read the files at each call
// (the command line searches so). The server uses an Index instead (index.go): a
// word index and the symbols of every file, built in the background from
// the walk and the disk cache (index_cache.go, internal/diskcache), and
// brought up to date before every answer from the watcher's changes (internal/watch) or,
// without one, a stat of every file (Index.sweep), so that its answers are the
// tools' answers for the files as they are at that moment.
package search
