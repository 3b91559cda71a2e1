// Package python reproduces the Python semantics the reference evaluator and
// the upstream extractors depend on, where Go's own differ and would change
// a result: str methods (the strip family takes a character set, str.strip()
// and splitlines know more whitespace and line breaks), int() of a str,
// os.path.basename and dirname, bytes.decode with errors="replace",
// regular expressions with Unicode \s \d \w, and json.dumps output (key
// separators, ensure_ascii, float repr) so written JSON is byte-identical.
package python
