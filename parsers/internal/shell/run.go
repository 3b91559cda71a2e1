package shell

import "strings"

// runNames are programs that run code, build or install: they neither show
// nor change repository files by themselves.
var runNames = []string{"python", "python2", "python3", "pypy", "pypy3", "pytest", "py.test", "tox", "nox",
	"make", "cmake", "ninja", "meson", "go", "cargo", "rustc", "npm", "npx", "yarn", "pnpm", "node", "deno", "bun",
	"tsc", "ts-node", "tsx", "jest", "mocha", "vitest", "java", "javac", "mvn", "gradle", "gradlew", "ant", "sbt",
	"scala", "scalac", "kotlin", "kotlinc", "gcc", "g++", "clang", "clang++", "cc", "c++", "ld", "ruby", "rake",
	"bundle", "rspec", "irb", "php", "composer", "phpunit", "dotnet", "swift", "swiftc", "pip", "pip3",
	"conda", "mamba", "micromamba", "apt", "apt-get", "yum", "dnf", "apk", "brew", "poetry", "uv", "pipenv",
	"coverage", "mypy", "flake8", "pylint", "black", "ruff", "isort", "eslint", "prettier", "lua", "Rscript", "R",
	"julia", "ghc", "stack", "cabal", "elixir", "mix", "erl", "docker", "curl", "wget", "django-admin", "manage.py",
	"source", ".", "ctest", "bazel", "buck", "nosetests", "unittest"}

// runTool marks a run.
func (a *analyzer) runTool(*call) *stream {
	a.runCmd = true
	return &stream{}
}

// shell handles bash, sh, zsh and dash: "bash -c SCRIPT" is analysed as a
// command line of its own (in its own working directory), anything else is
// a run.
func (a *analyzer) shell(c *call) *stream {
	if c.depth < maxDepth {
		if s, ok := dashC(c.args); ok {
			saved := a.cwd
			a.run(s, c.depth+1)
			a.cwd = saved
			return &stream{}
		}
	}
	a.runCmd = true
	return &stream{}
}

// dashC returns the script of "bash -c SCRIPT".
func dashC(args []token) (string, bool) {
	for i, w := range args {
		if !strings.HasPrefix(w.val, "-") {
			return "", false
		}
		if strings.Contains(w.val, "c") && !strings.HasPrefix(w.val, "--") && i+1 < len(args) {
			return args[i+1].val, true
		}
	}
	return "", false
}

// fallback handles every command no family claims. Builtins such as export
// or test and unknown programs say nothing about the repository; python*
// and pip* variants and scripts named by a path (./run.sh, /tmp/x.py) are
// runs.
func (a *analyzer) fallback(c *call) *stream {
	if strings.HasPrefix(c.name, "python") || strings.HasPrefix(c.name, "pip") || strings.Contains(c.word, "/") {
		a.runCmd = true
	}
	return &stream{}
}
