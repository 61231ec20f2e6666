// Command tlog-verify checks the Strategy Basket Service's checkpointed receipt log with Go's
// reference code (docs/trust-model.md#checked-by-the-reference-implementation):
// golang.org/x/mod/sumdb/note opens the signed checkpoints, and golang.org/x/mod/sumdb/tlog
// authenticates the tiles (TileHashReader) and checks inclusion (ProveRecord, CheckRecord) and
// consistency (ProveTree, CheckTree).
//
// It is built in GOPATH mode from Debian's golang-go and golang-golang-x-mod-dev (x/mod 0.7.0),
// without any module download. That x/mod predates C2SP's framings, so the few lines below
// that read them are this program's own: the checkpoint body (origin, size, base64 root), the
// tlog-tiles paths (tile/<L>/<N>, without x/mod's height element; tile/entries/<N>, where
// x/mod says data), entry bundles (uint16 length-prefixed entries) and tlog-proof@v1 files. It
// also canonicalizes a receipt (RFC 8785) to recompute an entry; receipts hold only strings,
// booleans, null, objects, arrays and integers, which is all it handles.
//
// Input: a JSON file of cases (tests/api/tlog-reference.test.ts writes it); output: one JSON
// line per case on stdout, then the counts. Exit 1 when any case's verdict differs from the
// verdict expected (a good case refused, or a tampered one accepted).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type proofCase struct {
	Name    string          `json:"name"`
	Receipt json.RawMessage `json:"receipt"`
	Proof   string          `json:"proof"`
	Expect  string          `json:"expect"`
}

type checkpointCase struct {
	Name   string `json:"name"`
	Note   string `json:"note"`
	Expect string `json:"expect"`
}

type tileCase struct {
	Name       string `json:"name"`
	TilesDir   string `json:"tilesDir"`
	Checkpoint string `json:"checkpoint"`
	Expect     string `json:"expect"`
}

type input struct {
	VerifierKey string `json:"verifierKey"`
	Origin      string `json:"origin"`
	// TileBase is the log's URL prefix (http://.../api/receipts/log) or a directory holding a mirror.
	TileBase    string           `json:"tileBase"`
	Checkpoints []checkpointCase `json:"checkpoints"`
	Proofs      []proofCase      `json:"proofs"`
	Tiles       []tileCase       `json:"tiles"`
}

type checkpoint struct {
	origin string
	tree   tlog.Tree
}

// openCheckpoint verifies the note's signature with x/mod's note.Open, then reads the C2SP
// checkpoint body: origin, decimal size without leading zeroes, base64 root; extension lines
// are allowed and ignored.
func openCheckpoint(text string, verifiers note.Verifiers, origin string) (checkpoint, error) {
	n, err := note.Open([]byte(text), verifiers)
	if err != nil {
		return checkpoint{}, err
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 {
		return checkpoint{}, errors.New("checkpoint: fewer than three lines")
	}
	if lines[0] != origin {
		return checkpoint{}, fmt.Errorf("checkpoint: origin %q, expected %q", lines[0], origin)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return checkpoint{}, errors.New("checkpoint: malformed tree size")
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		return checkpoint{}, errors.New("checkpoint: malformed root hash")
	}
	var h tlog.Hash
	copy(h[:], root)
	return checkpoint{origin: lines[0], tree: tlog.Tree{N: size, Hash: h}}, nil
}

// c2spTilePath is x/mod's tile path in C2SP's layout: no height element, "entries" for data.
func c2spTilePath(t tlog.Tile) string {
	p := t.Path() // tile/8/L/N[.p/W] or tile/8/data/N[.p/W]
	p = strings.TrimPrefix(p, fmt.Sprintf("tile/%d/", t.H))
	return "tile/" + strings.Replace(p, "data/", "entries/", 1)
}

// tileSource reads tiles by C2SP path from the log's URL prefix or a mirror directory.
type tileSource struct {
	base  string
	cache map[string][]byte
	reads int
}

func (s *tileSource) get(path string) ([]byte, error) {
	if data, ok := s.cache[path]; ok {
		return data, nil
	}
	var data []byte
	var err error
	if strings.HasPrefix(s.base, "http://") || strings.HasPrefix(s.base, "https://") {
		var res *http.Response
		res, err = http.Get(strings.TrimSuffix(s.base, "/") + "/" + path)
		if err == nil {
			defer res.Body.Close()
			if res.StatusCode != 200 {
				return nil, fmt.Errorf("%s: HTTP %d", path, res.StatusCode)
			}
			data, err = io.ReadAll(res.Body)
		}
	} else {
		data, err = os.ReadFile(filepath.Join(s.base, filepath.FromSlash(path)))
	}
	if err != nil {
		return nil, err
	}
	s.reads++
	s.cache[path] = data
	return data, nil
}

// The tlog.TileReader of x/mod over C2SP tiles (height 8).
func (s *tileSource) Height() int { return 8 }

func (s *tileSource) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		data, err := s.get(c2spTilePath(t))
		if err != nil {
			return nil, err
		}
		if len(data) != t.W*tlog.HashSize {
			return nil, fmt.Errorf("%s: %d bytes, expected %d", c2spTilePath(t), len(data), t.W*tlog.HashSize)
		}
		out[i] = data
	}
	return out, nil
}

func (s *tileSource) SaveTiles([]tlog.Tile, [][]byte) {}

// entries reads the entry bundle of tile n of width w: big-endian uint16 length-prefixed entries.
func (s *tileSource) entries(n int64, w int) ([][]byte, error) {
	data, err := s.get(c2spTilePath(tlog.Tile{H: 8, L: -1, N: n, W: w}))
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for len(data) > 0 {
		if len(data) < 2 {
			return nil, errors.New("entry bundle: truncated length")
		}
		l := int(binary.BigEndian.Uint16(data))
		if len(data) < 2+l {
			return nil, errors.New("entry bundle: truncated entry")
		}
		out = append(out, data[2:2+l])
		data = data[2+l:]
	}
	if len(out) != w {
		return nil, fmt.Errorf("entry bundle: %d entries, expected %d", len(out), w)
	}
	return out, nil
}

// checkAllEntries proves every entry of the tree from the entry bundles and the tiles:
// ProveRecord through TileHashReader (whose tiles are authenticated against the signed root),
// then CheckRecord of RecordHash(entry). It returns the number of inclusion proofs checked.
func checkAllEntries(src *tileSource, tree tlog.Tree) (int, error) {
	reader := tlog.TileHashReader(tree, src)
	checked := 0
	for start := int64(0); start < tree.N; start += 256 {
		w := int(tree.N - start)
		if w > 256 {
			w = 256
		}
		entries, err := src.entries(start/256, w)
		if err != nil {
			return checked, err
		}
		for i, e := range entries {
			index := start + int64(i)
			proof, err := tlog.ProveRecord(tree.N, index, reader)
			if err != nil {
				return checked, fmt.Errorf("entry %d: %v", index, err)
			}
			if err := tlog.CheckRecord(proof, tree.N, tree.Hash, index, tlog.RecordHash(e)); err != nil {
				return checked, fmt.Errorf("entry %d: %v", index, err)
			}
			checked++
		}
	}
	return checked, nil
}

// canonical writes RFC 8785 canonical JSON of the values a receipt holds.
func canonical(buf *bytes.Buffer, v interface{}) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(x))
	case json.Number:
		n, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil || n > 1<<53 || n < -(1<<53) {
			return fmt.Errorf("number %s: only safe integers are handled", x)
		}
		buf.WriteString(strconv.FormatInt(n, 10))
	case string:
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	case []interface{}:
		buf.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := canonical(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return utf16Less(keys[i], keys[j]) })
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := canonical(buf, k); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := canonical(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}

func utf16Less(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	units := func(rs []rune) []uint16 {
		var out []uint16
		for _, r := range rs {
			if r >= 0x10000 {
				r -= 0x10000
				out = append(out, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
			} else {
				out = append(out, uint16(r))
			}
		}
		return out
	}
	ua, ub := units(ra), units(rb)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

// receiptPayload is the receipt's canonical JSON without its signature block: the bytes an entry commits to.
func receiptPayload(raw json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v map[string]interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	delete(v, "signature")
	var buf bytes.Buffer
	if err := canonical(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checkProofFile reads a c2sp.org/tlog-proof@v1 file and checks the receipt's entry in it.
func checkProofFile(text string, receipt json.RawMessage, verifiers note.Verifiers, origin string) error {
	lines := strings.Split(text, "\n")
	at := 0
	next := func() string {
		if at >= len(lines) {
			return ""
		}
		at++
		return lines[at-1]
	}
	if next() != "c2sp.org/tlog-proof@v1" {
		return errors.New("proof: not c2sp.org/tlog-proof@v1")
	}
	line := next()
	var salt []byte
	if strings.HasPrefix(line, "extra ") {
		var err error
		if salt, err = base64.StdEncoding.DecodeString(strings.TrimPrefix(line, "extra ")); err != nil {
			return errors.New("proof: malformed extra")
		}
		line = next()
	}
	if len(salt) != 32 {
		return errors.New("proof: the extra line is not a 32-byte salt")
	}
	if !strings.HasPrefix(line, "index ") {
		return errors.New("proof: no index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(line, "index "), 10, 64)
	if err != nil || index < 0 || strconv.FormatInt(index, 10) != strings.TrimPrefix(line, "index ") {
		return errors.New("proof: malformed index")
	}
	var path tlog.RecordProof
	for at < len(lines) && lines[at] != "" {
		h, err := base64.StdEncoding.DecodeString(next())
		if err != nil || len(h) != tlog.HashSize {
			return errors.New("proof: malformed hash")
		}
		var hash tlog.Hash
		copy(hash[:], h)
		path = append(path, hash)
	}
	if next() != "" {
		return errors.New("proof: no checkpoint")
	}
	cp, err := openCheckpoint(strings.Join(lines[at:], "\n"), verifiers, origin)
	if err != nil {
		return err
	}
	payload, err := receiptPayload(receipt)
	if err != nil {
		return fmt.Errorf("receipt: %v", err)
	}
	entry := sha256.Sum256(append(append([]byte{}, salt...), payload...))
	return tlog.CheckRecord(path, cp.tree.N, cp.tree.Hash, index, tlog.RecordHash(entry[:]))
}

type verdict struct {
	Case   string `json:"case"`
	Kind   string `json:"kind"`
	Expect string `json:"expect"`
	Got    string `json:"got"`
	Error  string `json:"error,omitempty"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tlog-verify <cases.json>")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	v, err := note.NewVerifier(in.VerifierKey)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verifier key:", err)
		os.Exit(2)
	}
	verifiers := note.VerifierList(v)
	out := json.NewEncoder(os.Stdout)
	wrong := 0
	counts := map[string]int{}
	report := func(kind, name, expect string, err error) {
		got := "ok"
		msg := ""
		if err != nil {
			got, msg = "fail", err.Error()
		}
		if got != expect {
			wrong++
		}
		if expect == "fail" && got == "fail" {
			counts["tamperedRefused"]++
		}
		out.Encode(verdict{Case: name, Kind: kind, Expect: expect, Got: got, Error: msg})
	}

	// Every checkpoint's signature; the good ones, in order, for consistency.
	var good []checkpoint
	for _, c := range in.Checkpoints {
		cp, err := openCheckpoint(c.Note, verifiers, in.Origin)
		if err == nil && c.Expect == "ok" {
			good = append(good, cp)
			counts["checkpointSignatures"]++
		}
		report("checkpoint", c.Name, c.Expect, err)
	}
	src := &tileSource{base: in.TileBase, cache: map[string][]byte{}}
	if len(good) > 0 {
		latest := good[len(good)-1]
		// Consistency between each checkpoint and the next, and each and the latest, from the tiles.
		reader := tlog.TileHashReader(latest.tree, src)
		last := len(good) - 1
		for i := 0; i < last; i++ {
			pairs := []int{i + 1}
			if i+1 != last {
				pairs = append(pairs, last)
			}
			for _, j := range pairs {
				older, newer := good[i], good[j]
				var err error
				if newer.tree.N < older.tree.N {
					err = errors.New("checkpoints out of order")
				} else {
					newerReader := reader
					if newer.tree != latest.tree {
						newerReader = tlog.TileHashReader(newer.tree, src)
					}
					var p tlog.TreeProof
					if p, err = tlog.ProveTree(newer.tree.N, older.tree.N, newerReader); err == nil {
						err = tlog.CheckTree(p, newer.tree.N, newer.tree.Hash, older.tree.N, older.tree.Hash)
					}
				}
				if err == nil {
					counts["consistencyProofs"]++
				}
				report("consistency", fmt.Sprintf("%d->%d", older.tree.N, newer.tree.N), "ok", err)
			}
		}
		n, err := checkAllEntries(src, latest.tree)
		counts["inclusionProofsFromTiles"] += n
		report("tiles", fmt.Sprintf("all %d entries", latest.tree.N), "ok", err)
	}
	// Mirrors, some tampered: each is checked against its own signed checkpoint.
	for _, t := range in.Tiles {
		cp, err := openCheckpoint(t.Checkpoint, verifiers, in.Origin)
		if err == nil {
			_, err = checkAllEntries(&tileSource{base: t.TilesDir, cache: map[string][]byte{}}, cp.tree)
		}
		report("mirror", t.Name, t.Expect, err)
	}
	for _, p := range in.Proofs {
		err := checkProofFile(p.Proof, p.Receipt, verifiers, in.Origin)
		if err == nil && p.Expect == "ok" {
			counts["inclusionProofsFromProofFiles"]++
		}
		report("proof", p.Name, p.Expect, err)
	}
	counts["tileReads"] = src.reads
	counts["wrongVerdicts"] = wrong
	out.Encode(map[string]interface{}{"counts": counts})
	if wrong > 0 {
		os.Exit(1)
	}
}
