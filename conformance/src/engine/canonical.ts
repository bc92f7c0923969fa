// The canonical encoding of docs/determinism.md §3 and an exact JSON reader (integers as BigInt).

/** A snapshot value before encoding: integers are BigInt so none loses precision. */
export type Value = bigint | string | boolean | null | Value[] | Map<string, Value>;

const MAX_SAFE = (1n << 53n) - 1n;

export class EncodingError extends Error {}

/** Printable ASCII but the quote and the backslash: encoded as is (the common case, checked at once). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function encodeString(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
  if (/[\uD800-\uDFFF]/u.test(s)) throw new EncodingError("a string holds a lone surrogate");
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c < 0x20) {
      const short: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };
      out += short[c] ?? "\\u" + c.toString(16).padStart(4, "0");
    } else out += ch;
  }
  return out + '"';
}

/** Code point order (= UTF-8 byte order), not JavaScript's default UTF-16 code unit order. */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order is code point order unless a surrogate (a code point beyond U+FFFF) is involved
    if ((x < 0xd800 || x > 0xdfff) && (y < 0xd800 || y > 0xdfff)) return x - y;
    return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
  }
  return a.length - b.length;
}

function encodeInto(v: Value, out: string[], path: string): void {
  if (typeof v === "bigint") {
    out.push(v >= -MAX_SAFE && v <= MAX_SAFE ? v.toString() : '"' + v.toString() + '"');
  } else if (typeof v === "string") {
    out.push(encodeString(v));
  } else if (typeof v === "boolean") {
    out.push(v ? "1" : "0");
  } else if (v === null) {
    throw new EncodingError(`${path}: null outside an object (an absent value is left out of an object)`);
  } else if (Array.isArray(v)) {
    out.push("[");
    v.forEach((x, i) => {
      if (i) out.push(",");
      encodeInto(x, out, `${path}[${i}]`);
    });
    out.push("]");
  } else {
    out.push("{");
    let first = true;
    for (const k of [...v.keys()].sort(compareKeys)) {
      const x = v.get(k) as Value;
      if (x === null) continue;
      if (!first) out.push(",");
      first = false;
      out.push(encodeString(k), ":");
      encodeInto(x, out, `${path}.${k}`);
    }
    out.push("}");
  }
}

export function canonicalBytes(v: Value): Buffer {
  const out: string[] = [];
  encodeInto(v, out, "$");
  return Buffer.from(out.join(""), "utf8");
}

/** A JSON reader that keeps every integer exact (BigInt); the vectors' inputs hold bare 64-bit ints. */
export function parseExact(text: string): Value {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`JSON at offset ${i}: ${what}`);
  };
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // the opening quote
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === "\\") i++;
      else if (c === '"') break;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Value => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const m = new Map<string, Value>();
      ws();
      if (text[i] === "}") {
        i++;
        return m;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const k = str();
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        m.set(k, value());
        ws();
        const d = text[i++];
        if (d === "}") return m;
        if (d !== ",") fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const a: Value[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return a;
        if (d !== ",") fail("expected ',' or ']'");
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(0|[1-9][0-9]*)/.exec(text.slice(i, i + 40));
    if (!m) return fail("unexpected character");
    i += m[0].length;
    if (".eE".includes(text[i] ?? " ")) fail("a non-integer number (floats are not allowed)");
    return BigInt(m[0]);
  };
  const v = value();
  ws();
  if (i !== text.length) fail("trailing text");
  return v;
}

/** A value from JSON.parse (safe: the canonical bytes hold no integer beyond 2^53) as a Value. */
export function fromPlain(x: unknown): Value {
  if (typeof x === "number") {
    if (!Number.isSafeInteger(x)) throw new Error(`not a safe integer: ${x}`);
    return BigInt(x);
  }
  if (typeof x === "string") return x;
  if (Array.isArray(x)) return x.map(fromPlain);
  if (x !== null && typeof x === "object") {
    return new Map(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, fromPlain(v)]));
  }
  throw new Error(`unexpected ${JSON.stringify(x)} in canonical bytes`);
}


/** Python's `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, which the
 * record's part digests, start and command hashes and the card digests use (docs/determinism.md §8):
 * unlike the canonical encoding, booleans are `true`/`false`, None is `null` (kept in objects) and every
 * integer is a bare number. Integers must be BigInt or safe numbers; keys sort by code point. */
export function pyJson(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) throw new EncodingError(`not an integer: ${v}`);
    return v.toString();
  }
  if (typeof v === "string") return encodeString(v);
  if (Array.isArray(v)) return "[" + v.map(pyJson).join(",") + "]";
  if (v instanceof Map) {
    return "{" + [...v.keys()].map(String).sort(compareKeys)
      .map((k) => encodeString(k) + ":" + pyJson(v.get(k))).join(",") + "}";
  }
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    return "{" + Object.keys(o).sort(compareKeys).map((k) => encodeString(k) + ":" + pyJson(o[k])).join(",") + "}";
  }
  throw new EncodingError(`cannot encode ${typeof v}`);
}
