// Package project is the project sandbox: resolving the paths tools are
// given (never outside the project folder), walking its files under the
// ignore rules, matching the path argument's globs, and reading the files
// the walk listed. It knows no tool and no search: search and mcpserver
// read the project through it alone.
//
// The pieces follow ripgrep's seams, each in its own file:
//
//   - root.go and open.go: Root, the open project folder; Rel, Open and
//     ReadFile resolve a tool's path and refuse one that leaves the
//     project (PathError is the one line a tool answers with).
//   - walk.go: Root.Walk lists the files the search covers as Entry values
//     (path, size, modification time, inode), sorted by path.
//   - ignore.go and rules.go: the ignore files' patterns, and the rules
//     that apply in a folder, assembled in one place for the walk and for
//     Rules, which answers for one path at a time (an index after a
//     change).
//   - read.go: a Source gives a listed file's bytes; Root is the one that
//     reads the disk, skipping binary files.
//   - glob.go: PathFilter, the path argument's globs (the only user of
//     doublestar).
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
package project
