package symbols

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// row is one expected Def plus the bytes it must start and end with, so each
// offset was checked against the fixture text and not only copied from a run.
type row struct {
	typ        string
	start, end int
	name       string
	head, tail string
}

func readFixture(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkRows(t *testing.T, path string, src []byte, got []Def, want []row) {
	t.Helper()
	var exp []Def
	for _, r := range want {
		exp = append(exp, Def{Type: r.typ, Start: r.start, End: r.end, Name: r.name})
		if r.end > len(src) || !strings.HasPrefix(string(src[r.start:r.end]), r.head) ||
			!strings.HasSuffix(string(src[r.start:r.end]), r.tail) {
			t.Errorf("%s: fixture row %v does not match the file bytes", path, r)
		}
	}
	if !reflect.DeepEqual(got, exp) {
		t.Errorf("%s: Defs mismatch\n got  %v\n want %v", path, got, exp)
	}
}

// TestVectorRepo checks the upstream test vector repo (testdata/testvectors): the exact
// offsets the reference evaluator produced for pkg/mod.py, none for util.py.
func TestVectorRepo(t *testing.T) {
	tests := []struct {
		file string
		want []row
	}{
		{"mod.py", []row{
			{"function_definition", 12, 42, "alpha", "def alpha(x):", "x + 1"},
			{"class_definition", 45, 133, "Beta", "class Beta:", "return 3"},
			{"function_definition", 61, 94, "gamma", "def gamma(self):", "return 2"},
			{"function_definition", 100, 133, "delta", "def delta(self):", "return 3"},
		}},
		{"util.py", nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			src := readFixture(t, path)
			got, err := testDefs("pkg/"+tc.file, src)
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, path, src, got, tc.want)
		})
	}
}

// TestLanguageFixtures covers one fixture per mapped language. Names follow
// the upstream heuristic, quirks included: an identifier anywhere in the
// search root beats a field/type identifier, so C++ "dot(const Vec& o)" is
// named "o", Go "type Pair struct{Left…}" is "Left", a Rust impl takes its
// first method's name, Kotlin functions (simple_identifier is not an
// identifier type) take their return type, and a JSX arrow takes its tag.
// Fake definitions inside comments never appear.
func TestLanguageFixtures(t *testing.T) {
	tests := []struct {
		file string
		want []row
	}{
		{
			file: "Sample.java",
			want: []row{
				{"class_declaration", 32, 336, "Sample", "public class Sample {", " }\n    }\n}"},
				{"constructor_declaration", 78, 126, "Sample", "public Sample(int n) {", "= n;\n    }"},
				{"method_declaration", 132, 174, "get", "public int get() {", "n n;\n    }"},
				{"interface_declaration", 180, 235, "Visitor", "interface Visitor {", " s);\n    }"},
				{"method_declaration", 208, 229, "visit", "void visit(Sample s);", "Sample s);"},
				{"class_declaration", 241, 334, "Nested", "static class Nested {", "   }\n    }"},
				{"method_declaration", 271, 328, "run", "void run() {", "\n        }"},
				{"method_declaration", 356, 371, "paint", "void paint() {}", "paint() {}"},
			},
		},
		{
			file: "nophp.php",
			want: []row{},
		},
		{
			file: "sample.c",
			want: []row{
				{"struct_specifier", 50, 80, "point", "struct point {", "nt x, y;\n}"},
				{"struct_specifier", 91, 112, "w", "struct {", "  int w;\n}"},
				{"function_definition", 122, 225, "area", "static int area(struct p", "* tmp.y;\n}"},
				{"struct_specifier", 138, 150, "point", "struct point", "ruct point"},
				{"struct_specifier", 155, 167, "point", "struct point", "ruct point"},
				{"struct_specifier", 177, 189, "point", "struct point", "ruct point"},
				{"function_definition", 227, 270, "get_handler", "int (*get_handler(void))", "eturn 0; }"},
				{"function_definition", 272, 332, "main", "int main(void) {", "{1, 2});\n}"},
				{"struct_specifier", 309, 321, "point", "struct point", "ruct point"},
				// Same start byte: pre-order puts the function before its return type.
				{"function_definition", 334, 398, "origin", "struct point origin(void)", " return o; }"},
				{"struct_specifier", 334, 346, "point", "struct point", "ruct point"},
				{"struct_specifier", 362, 374, "point", "struct point", "ruct point"},
			},
		},
		{
			file: "sample.cpp",
			want: []row{
				{"struct_specifier", 36, 132, "Vec", "struct Vec {", "* o.y; }\n}"},
				{"function_definition", 70, 130, "o", "double dot(const Vec& o)", "y * o.y; }"},
				{"class_specifier", 135, 219, "Shape", "class Shape {", "nst = 0;\n}"},
				{"function_definition", 161, 180, "Shape", "virtual ~Shape() {}", "Shape() {}"},
				// "virtual double area() const = 0;" (185..217) is dropped: see
				// grammar.dropPureVirtual.
				{"class_specifier", 222, 386, "Circle", "class Circle : public Sh", "uble r_;\n}"},
				{"function_definition", 264, 300, "Circle", "explicit Circle(double r", ": r_(r) {}"},
				{"function_definition", 305, 360, "area", "double area() const over", "r_ * r_; }"},
				{"function_definition", 410, 450, "free_fn", "double geo::free_fn(int ", "eturn n; }"},
				{"function_definition", 474, 503, "identity", "T identity(T v) { return", "eturn v; }"},
				{"function_definition", 505, 574, "main", "int main() {", "rn f(0);\n}"},
				// "int count = 0;" and "virtual void tick() = 0;" are dropped too.
				{"struct_specifier", 576, 674, "Counter", "struct Counter {", "= 0; }\n}"},
				{"function_definition", 645, 672, "reset", "void reset() { count = 0; }", "unt = 0; }"},
			},
		},
		{
			file: "sample.cs",
			want: []row{
				{"interface_declaration", 57, 115, "IShape", "public interface IShape", "a();\n    }"},
				{"method_declaration", 95, 109, "Area", "double Area();", "le Area();"},
				{"class_declaration", 121, 364, "Circle", "public class Circle : IS", "   }\n    }"},
				{"method_declaration", 240, 280, "Area", "public double Area() => ", "I * R * R;"},
				{"class_declaration", 290, 358, "Cache", "private class Cache", "\n        }"},
				{"method_declaration", 332, 348, "Clear", "void Clear() { }", "lear() { }"},
				{"method_declaration", 382, 394, "M", "void M() { }", "id M() { }"},
			},
		},
		{
			file: "sample.go",
			want: []row{
				{"type_declaration", 46, 83, "Left", "type Pair struct {", "ight int\n}"},
				{"type_declaration", 85, 101, "Alias", "type Alias = int", "lias = int"},
				{"type_declaration", 103, 156, "Name", "type (", "string }\n)"},
				{"type_declaration", 158, 182, "w", "type Handler func(w int)", "unc(w int)"},
				{"function_declaration", 184, 219, "New", "func New() *Pair { retur", " &Pair{} }"},
				{"method_declaration", 221, 306, "Sum", "func (p *Pair) Sum() int", " p.Right\n}"},
			},
		},
		{
			file: "sample.h",
			want: []row{
				{"struct_specifier", 50, 80, "point", "struct point {", "nt x, y;\n}"},
				{"struct_specifier", 91, 112, "w", "struct {", "  int w;\n}"},
				{"function_definition", 122, 225, "area", "static int area(struct p", "* tmp.y;\n}"},
				{"struct_specifier", 138, 150, "point", "struct point", "ruct point"},
				{"struct_specifier", 155, 167, "point", "struct point", "ruct point"},
				{"struct_specifier", 177, 189, "point", "struct point", "ruct point"},
				{"function_definition", 227, 270, "get_handler", "int (*get_handler(void))", "eturn 0; }"},
				{"function_definition", 272, 332, "main", "int main(void) {", "{1, 2});\n}"},
				{"struct_specifier", 309, 321, "point", "struct point", "ruct point"},
				// Same start byte: pre-order puts the function before its return type.
				{"function_definition", 334, 398, "origin", "struct point origin(void)", " return o; }"},
				{"struct_specifier", 334, 346, "point", "struct point", "ruct point"},
				{"struct_specifier", 362, 374, "point", "struct point", "ruct point"},
			},
		},
		{
			file: "sample.js",
			want: []row{
				{"function_declaration", 35, 73, "add", "function add(a, b) {", "n a + b;\n}"},
				{"arrow_function", 90, 102, "x", "(x) => x * 2", ") => x * 2"},
				{"class_declaration", 105, 278, "Counter", "class Counter extends Ba", "his.n; }\n}"},
				{"method_definition", 136, 184, "constructor", "constructor() {", "n = 0;\n  }"},
				{"method_definition", 187, 243, "inc", "inc() {", "v; });\n  }"},
				{"arrow_function", 214, 237, "v", "(v) => { this.n += v; }", ".n += v; }"},
				{"method_definition", 246, 276, "value", "get value() { return thi", " this.n; }"},
				{"function_declaration", 295, 342, "main", "async function main() {", ") => 1);\n}"},
				{"arrow_function", 331, 338, "", "() => 1", "() => 1"},
			},
		},
		{
			file: "sample.jsx",
			want: []row{
				{"arrow_function", 12, 52, "div", "() => <div onClick={() =", "}>hi</div>"},
				{"arrow_function", 32, 42, "go", "() => go()", "() => go()"},
				{"function_declaration", 54, 107, "Hello", "function Hello(props) { ", "me}</p>; }"},
			},
		},
		{
			file: "sample.kt",
			want: []row{
				{"class_declaration", 31, 73, "Shape", "interface Shape {", ": Double\n}"},
				{"function_declaration", 53, 71, "Double", "fun area(): Double", "(): Double"},
				{"class_declaration", 75, 224, "Circle", "class Circle(val r: Doub", "0)\n    }\n}"},
				{"function_declaration", 117, 159, "Double", "override fun area(): Dou", "14 * r * r"},
				{"function_declaration", 192, 216, "", "fun unit() = Circle(1.0)", "ircle(1.0)"},
				{"function_declaration", 248, 265, "", "fun register() {}", "ister() {}"},
				{"function_declaration", 269, 332, "Int", "fun top(x: Int): Int {", " local()\n}"},
				{"function_declaration", 296, 311, "", "fun local() = x", "ocal() = x"},
			},
		},
		{
			file: "sample.php",
			want: []row{
				{"function_definition", 60, 101, "top_level", "function top_level($a) {", "turn $a;\n}"},
				{"class_declaration", 103, 244, "Greeter", "class Greeter extends Ba", "per() {}\n}"},
				{"method_declaration", 136, 202, "greet", "public function greet($n", "ame;\n    }"},
				{"method_declaration", 207, 242, "helper", "private static function ", "elper() {}"},
				{"method_declaration", 266, 290, "speak", "public function speak();", "n speak();"},
				{"method_declaration", 306, 325, "shout", "function shout() {}", "shout() {}"},
			},
		},
		{
			file: "sample.py",
			want: []row{
				{"function_definition", 28, 103, "plain", "def plain(a, b=1):", "turn a + b"},
				{"function_definition", 106, 217, "fetch", "async def fetch(url):", "turn inner"},
				{"function_definition", 160, 199, "inner", "def inner():", "ambda x: x"},
				{"class_definition", 220, 338, "Outer", "class Outer(Base):", "      pass"},
				{"class_definition", 259, 284, "Inner", "class Inner:", "      pass"},
				{"function_definition", 308, 338, "method", "def method(self):", "      pass"},
			},
		},
		{
			file: "sample.rb",
			want: []row{
				{"module", 16, 204, "Outer", "module Outer", "\n  end\nend"},
				{"class", 31, 159, "Thing", "class Thing < Base", "= @x\n  end"},
				{"method", 54, 92, "initialize", "def initialize(x)", " x\n    end"},
				{"method", 139, 153, "value", "def value = @x", "value = @x"},
				{"method", 181, 194, "meta", "def meta; end", " meta; end"},
				{"method", 206, 218, "top", "def top; end", "f top; end"},
			},
		},
		{
			file: "sample.rs",
			want: []row{
				{"struct_item", 16, 56, "Point", "struct Point {", " y: i32,\n}"},
				{"trait_item", 58, 167, "Shape", "trait Shape {", "\")\n    }\n}"},
				{"function_item", 103, 165, "name", "fn name(&self) -> String", "pe\")\n    }"},
				{"impl_item", 169, 239, "area", "impl Shape for Point {", ".0\n    }\n}"},
				{"function_item", 196, 237, "area", "fn area(&self) -> f64 {", " 0.0\n    }"},
				{"impl_item", 241, 319, "new", "impl<T> Wrapper<T> {", "v)\n    }\n}"},
				{"function_item", 266, 317, "new", "pub fn new(v: T) -> Self", "r(v)\n    }"},
				{"struct_item", 321, 342, "Wrapper", "struct Wrapper<T>(T);", "per<T>(T);"},
				{"function_item", 344, 404, "main", "fn main() {", "| x + 1;\n}"},
				{"function_item", 360, 374, "helper", "fn helper() {}", "elper() {}"},
			},
		},
		{
			file: "sample.scala",
			want: []row{
				{"trait_definition", 30, 64, "Shape", "trait Shape {", ": Double\n}"},
				{"class_definition", 66, 141, "Circle", "class Circle(r: Double) ", " * r * r\n}"},
				{"function_definition", 108, 139, "area", "def area: Double = 3.14 ", "14 * r * r"},
				{"function_definition", 159, 252, "main", "def main(args: Array[Str", "er(1))\n  }"},
				{"function_definition", 203, 225, "helper", "def helper(x: Int) = x", ": Int) = x"},
				{"class_definition", 256, 288, "Point", "case class Point(x: Int,", "t, y: Int)"},
			},
		},
		{
			file: "sample.swift",
			want: []row{
				{"protocol_declaration", 37, 81, "Shape", "protocol Shape {", "> Double\n}"},
				{"class_declaration", 83, 209, "Circle", "class Circle: Shape {", " r * r }\n}"},
				{"function_declaration", 162, 207, "area", "func area() -> Double { ", " * r * r }"},
				{"class_declaration", 211, 266, "Point", "struct Point {", "turn 0 }\n}"},
				{"function_declaration", 230, 264, "norm", "func norm() -> Double { ", "return 0 }"},
				{"function_declaration", 268, 304, "topLevel", "func topLevel(_ x: Int) ", " Int { x }"},
			},
		},
		{
			file: "sample.ts",
			want: []row{
				{"interface_declaration", 0, 37, "Shape", "interface Shape {", " number;\n}"},
				{"class_declaration", 46, 168, "Square", "class Square implements ", "* 2;\n  }\n}"},
				{"method_definition", 80, 116, "constructor", "constructor(private side", "number) {}"},
				{"method_definition", 119, 166, "area", "area(): number {", " ** 2;\n  }"},
				{"function_declaration", 170, 211, "make", "function make<T>(x: T): ", "eturn x;\n}"},
			},
		},
		{
			file: "sample.tsx",
			want: []row{
				{"interface_declaration", 0, 35, "Props", "interface Props {", " string;\n}"},
				{"function_declaration", 44, 142, "Greeting", "function Greeting({ name", "e}</h1>;\n}"},
				{"class_declaration", 144, 228, "Widget", "class Widget extends Rea", " />;\n  }\n}"},
				{"method_definition", 192, 226, "render", "render() {", "iv />;\n  }"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", "lang", tc.file)
			src := readFixture(t, path)
			got, err := testDefs(path, src)
			if err != nil {
				t.Fatal(err)
			}
			checkRows(t, path, src, got, tc.want)
		})
	}
}

// testDefs is Defs under the default parse budget.
func testDefs(path string, content []byte) ([]Def, error) {
	// No deadline: a test must not fail because the machine is slow (the
	// budget is tested on a grammar loop, which never ends by itself).
	return Defs(context.Background(), path, content)
}
