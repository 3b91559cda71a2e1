// Package parsers reads every supported run format: it detects a file's
// format (by the reference evaluator's file-name rules first, then by
// content, so a renamed file still loads), loads runs through the
// per-format packages, loads prediction records the way the evaluator's
// load_pred does, reads the predictions a scorer pairs with gold
// (ReadPredictions), and converts any format to unified prediction records.
//
// All of it is driven by one table, formats in formats.go: a format is
// known to detection, Load, LoadPredictions, ReadPredictions, Convert and
// --format exactly when it has a row there.
//
// # Adding a trajectory format
//
// A format is one new package plus one table row:
//
//  1. parsers/<format>/<format>.go (new package): the constant Name; a
//     sniffer Sniff(name string, head []byte) bool that recognises the
//     format from a file's base name and first 64 KiB; and a parser,
//     ParseRuns(path string, data []byte) ([]model.Run, error), given the
//     file's content (read by parsers/internal/loader, which every format
//     shares: bounded to model.MaxFileBytes, runs past model.MaxActions
//     refused). A one-run format whose instance id comes from the file
//     name may instead export Parse(name string, data []byte)
//     (*model.Run, error) and be registered through loader.Named. A
//     format that is a directory also exports IsDir- and LoadDir-style
//     functions. JSON goes through parsers/internal/jsontree (the one
//     reader), shell commands through parsers/internal/shell, tool calls
//     through parsers/internal/toolcall; a format the reference evaluator
//     has no extractor for takes its ContextBench steps from
//     observed.Declare. An action's output and thought go in the run's
//     Observations and Thoughts (model.TextList, one entry per action),
//     not in the action; the loader compresses them. Its tests read files
//     with predtest.Loader, as the table does.
//  2. parsers/formats.go: one row in formats, placed in the content
//     detection order (most distinctive markers first), with the name,
//     aliases, the sniffer and the parser; suffixes only where the
//     reference evaluator's load_pred has a file-name rule for the format;
//     refines where its files carry another format's suffix; isDir and
//     loadDir for directories.
//
// A detection fixture in parsers_test.go (the fixtures list) is the test
// that the new row is found; nothing else needs editing.
package parsers
