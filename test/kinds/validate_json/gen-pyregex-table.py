#!/usr/bin/env python3
"""Writes test/kinds/validate_json/fixtures/pyregex-table.json: Python re's own answers for the translator's table test.

Each case is a pattern with inputs; Python decides whether it compiles and what re.search finds.
`refuse` marks constructs Python accepts but validate_json refuses by contract (the generator checks
that Python does accept them). Run: python3 test/kinds/validate_json/gen-pyregex-table.py
"""
import json, re, sys, pathlib

W = ["abc", "", "a b", "x_1", "\u00e9t\u00e9", "\u0661\u0662", "\n", "A-Z"]
CASES = [
    # anchors and end of string
    (r"\Aabc", ["abc", "xabc", "abc\n"]), (r"abc\Z", ["abc", "abc\n", "xabc"]),
    (r"^abc$", ["abc", "abc\n", "abc\n\n", "xabc"]), (r"^$", ["", "\n", "\n\n"]),
    (r"a$", ["a", "a\n", "ab"]), (r"abc\z", ["abc"]), (r"^\d+$", ["123", "123\n", "12a", "\u0661\u0662\u0663"]),
    # classes: Unicode \d \w \s, . and \b
    (r"\d", ["5", "\u0665", "\u00bd", "x", "\uff11"]), (r"\D", ["5", "x", ""]),
    (r"^\w+$", ["abc", "\u00e9", "x_1", "a-b", "\u0301", "\u2167", "\u00b2"]), (r"\W", ["a", "-", " ", "\u00e9"]),
    (r"\s", [" ", "\t", "\x1c", "\x85", "\ufeff", "\u3000", "x", "\u200b"]), (r"^\S+$", ["abc", "a b", "\ufeff"]),
    (r".", ["\r", "\n", "\u2028", "a", ""]), (r"^.$", ["\U0001F600", "ab", "\r"]),
    (r"\bé", ["é", " é", "xé"]), (r"\bfoo\b", ["foo", "a foo b", "foobar", "éfoo"]),
    (r"\B", ["", "ab", "a"]), (r"a\B", ["ab", "a", "a "]),
    (r"[\d]", ["\u0665", "x"]), (r"[\w.]", ["\u00e9", ".", "-"]), (r"[^\w]", ["a", "-", "\u00e9"]),
    (r"[\W]", ["a", "-"]), (r"[\W\d]", ["a", "-", "5"]), (r"[^\W\d]", ["a", "-", "5", "_"]),
    (r"[\s\S]", ["\n", "x"]), (r"[^\S]", [" ", "x", "\x85"]), (r"[\D]", ["5", "x"]),
    # groups and names
    (r"(?P<n>a)b", ["ab", "b"]), (r"(?P<n>a)(?P=n)", ["aa"], "backreference"), (r"(?P<1n>a)", ["a"]),
    (r"(?P<n>a)(?P<n>b)", ["ab"]), (r"(?P<é>a)", ["a"]), (r"(?:ab)+c", ["ababc", "c"]),
    (r"(a|b)*c", ["abac", "d"]), (r"(?<n>a)", ["a"]), (r"(?P", ["x"]), (r"(?Px)", ["x"]),
    (r"(a", ["a"]), (r"a)", ["a"]), (r"()", [""]), (r"(?=a)*a", ["a"]), (r"(?=ab)a", ["ab", "ac"]),
    (r"(?!a)\w", ["a", "b"]), (r"(?#comment)a", ["a"]), (r"a(?#x)*", ["aaa", "b"]), (r"(?#x", ["x"]),
    # quantifiers and braces
    (r"a{,2}b", ["aab", "b", "aaab"]), (r"^a{,2}$", ["aaa", "aa", ""]), (r"^a{2}$", ["aa", "a"]),
    (r"^a{2,}$", ["aa", "aaaa", "a"]), (r"^a{1,3}?$", ["aaa", "aaaa"]), (r"a{,}", ["", "aaa"]),
    (r"a{", ["a{", "a"]), (r"a{x}", ["a{x}"]), (r"a{1,2", ["a{1,2"]), (r"x}", ["x}"]), (r"{", ["{"]),
    (r"a{}", ["a{}"]), (r"{1}", ["x"]), (r"a{3,1}", ["a"]), (r"a**", ["a"]), (r"a*?b", ["aab"]),
    (r"*a", ["a"]), (r"^*", ["a"]), (r"\b+", ["a"]), (r"a{4294967295}", ["a"]), (r"a{2}{3}", ["a"]),
    # character classes
    (r"]", ["]"]), (r"[]a]", ["]", "a", "b"]), (r"[^]a]", ["]", "b"]), (r"[a[b]", ["[", "b"]),
    (r"[a&&b]", ["&", "c"]), (r"[a--b]", ["-"]), (r"[a-]", ["-", "a", "b"]), (r"[-a]", ["-"]),
    (r"[z-a]", ["a"]), (r"[\d-z]", ["a"]), (r"[a-\d]", ["a"]), (r"[\d-]", ["-", "5"]),
    (r"[abc", ["a"]), (r"[]", ["]"]), (r"[\b]", ["\b", "b"]), (r"[\A]", ["A"]), (r"[\1]", ["\x01"]),
    (r"[\8]", ["8"]), (r"[^a-c]", ["b", "d", "\n"]), (r"[.^$*+?(){}|/]", ["x", "^", "/", "{"]),
    (r"[\-\]\[\\]", ["-", "]", "[", "\\", "a"]), (r"[é-ü]", ["ö", "e"]), (r"[\U0001F600-\U0001F64F]", ["\U0001F610", "a"]),
    # escapes
    (r"\U0001F600", ["\U0001F600"]), (r"\U00110000", ["x"]), (r"\N{LATIN SMALL LETTER E WITH ACUTE}", ["é"], "named-character"),
    (r"\N", ["N"]), (r"\101", ["A"]), (r"\0", ["\x00"]), (r"\07", ["\x07"]), (r"\400", ["x"]),
    (r"\a", ["\x07"]), (r"\-\#\ \"", ['-# "']), (r"\e", ["e"]), (r"\cA", ["\x01"]), (r"\p{L}", ["a"]),
    (r"\k<n>", ["x"]), (r"\x41\u00e9", ["Aé"]), (r"\x4", ["x"]), (r"\u12", ["x"]), (r"\é", ["é"]),
    (r"\.\*\+\?\(\)\{\}\|\^\$", [".*+?(){}|^$"]), (r"a\/b", ["a/b"]), (r"\t\n\r\f\v", ["\t\n\r\f\v"]),
    (r"a\\", ["a\\"]), ("a\\", ["a"]), (r"\1", ["x"]), (r"(a\1)", ["aa"]),
    (r"(a)\18", ["a\x01" + "8"]),
    # forbidden by contract though Python accepts them
    (r"(?i)abc", ["ABC"], "inline-flags"), (r"(?i:a)b", ["Ab"], "inline-flags"), (r"(?-i:a)b", ["ab"], "inline-flags"),
    (r"x(?i)a", ["xa"]), (r"(?<=a)b", ["ab"], "look-behind"), (r"(?<!a)b", ["cb"], "look-behind"),
    (r"a*+", ["aaa"], "possessive"), (r"a{1,2}+", ["aa"], "possessive"), (r"(?>a+)b", ["aab"], "atomic-group"),
    (r"(a)?(?(1)b|c)", ["ab"], "conditional"), (r"(a)\1", ["aa"], "backreference"),
    (r"(?P<x>a)(?P=x)", ["aa"], "backreference"), (r"\N{DIGIT ONE}", ["1"], "named-character"),
    (r"(?q)", ["q"]), (r"(?L)a", ["a"]),
    # everyday schema patterns
    (r"^[A-Z]{3}-[0-9]{4}$", ["ABC-1234", "AB-1234", "ABC-1234\n", "ABC-12345"]),
    (r"^\S+@\S+\.\S+$", ["a@b.co", "a b@c.d", "x@y"]), (r"^(\+|-)?\d+(\.\d+)?$", ["-1.5", "+3", "1."]),
    (r"^#[0-9a-fA-F]{6}$", ["#a0B1c2", "#12345"]), (r"^[a-z0-9]+(?:-[a-z0-9]+)*$", ["my-slug-1", "-x", "a--b"]),
    (r"colou?r", ["color", "colour", "colr"]), (r"^\p", ["p"]), (r"^(a+)+$", ["aaaa", "ab"]),
    (r"^$|^x", ["", "x", "y"]), (r"a|", ["b"]), (r"|", [""]),
]

def run(case):
    pattern, inputs, refuse = (case + (None,))[:3]
    entry = {"pattern": pattern, "inputs": inputs}
    try:
        compiled = re.compile(pattern)
    except (re.error, OverflowError) as e:
        entry["python"] = {"error": getattr(e, "msg", str(e)), "position": getattr(e, "pos", None)}
        if refuse:
            sys.exit(f"{pattern!r}: marked refuse={refuse} but Python rejects it: {e.msg}")
        return entry
    entry["python"] = {"matches": [compiled.search(s) is not None for s in inputs]}
    if refuse:
        entry["refuse"] = refuse
    return entry

table = {
    "generator": "test/kinds/validate_json/gen-pyregex-table.py",
    "python": sys.version.split()[0],
    "cases": [run(c) for c in CASES],
}
out = pathlib.Path(__file__).resolve().parent / "fixtures" / "pyregex-table.json"
out.write_text(json.dumps(table, indent=1, ensure_ascii=True) + "\n")
print(f"{len(table['cases'])} cases -> {out}")
