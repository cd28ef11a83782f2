// Reads a WARC file with webrecorder's warcio (the reader pywb and ReplayWeb.page use) and
// prints one JSON object a line per record: its type, target, date, HTTP status, payload
// digest as written, and the digest warcio's payload actually has. The Go tests of
// backend/archive run it on an export, beside the project's own reader.
import { createReadStream } from "node:fs";
import { createHash } from "node:crypto";
import { WARCParser } from "warcio";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32(bytes) {
  let out = "", bits = 0, value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

const file = process.argv[2];
if (!file) {
  console.error("usage: node warcio-read.mjs FILE.warc[.gz]");
  process.exit(2);
}
const parser = new WARCParser(createReadStream(file));
for await (const record of parser) {
  const out = {
    type: record.warcType,
    uri: record.warcTargetURI ?? "",
    date: record.warcDate ?? "",
    id: record.warcHeader("WARC-Record-ID") ?? "",
    refersTo: record.warcHeader("WARC-Refers-To") ?? "",
    status: 0,
    digest: record.warcPayloadDigest ?? "",
    payloadDigest: "",
    length: 0,
  };
  if (record.httpHeaders && record.warcType !== "request") {
    const s = Number(record.httpHeaders.statusCode);
    out.status = Number.isFinite(s) ? s : 0;
  }
  const payload = await record.readFully(true);
  out.length = payload.length;
  if (record.warcType === "response") {
    out.payloadDigest = "sha1:" + base32(createHash("sha1").update(payload).digest());
  }
  console.log(JSON.stringify(out));
}
