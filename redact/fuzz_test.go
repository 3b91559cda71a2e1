package redact

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Whatever a JSON line holds, redacting it keeps it JSON (issue 38 #3:
// a match used to swallow an escape's letters).
func FuzzJSONWriter(f *testing.F) {
	f.Add(`{"a": "x\n-sk-proj-Zq8rT2vLm4Xw9Kp3Jd7Hs1Nc6Bf5Gy0A", "b": ["\u001bghp_16C7e42F292c6912E7710c838347Ae178B4a"]}`)
	f.Add(`{"p": "postgres://u:S3cr3t@h/db", "k": "PASSWORD=hunter22"}`)
	f.Add(`["a@b.io", "/home/ann/x", 1, null]`)
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		var b bytes.Buffer
		w := (&Redactor{}).JSONWriter(&b)
		w.Write([]byte(in))
		w.Close()
		if !json.Valid(b.Bytes()) {
			t.Fatalf("not JSON after redaction:\n%q\n%q", in, b.String())
		}
	})
}
