// `format` is an annotation in 2019-09 and 2020-12 (the drafts say so; the suite's required tests
// expect it). Drafts 04-07 leave assertion to the implementation; we assert a few well-defined formats
// there, all with linear-time checks on the main thread (no schema-supplied regex is involved).

import type { Draft } from "./types.js";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|([+-])(\d{2}):(\d{2}))$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= (days ?? 0);
}

function validTime(s: string): boolean {
  const m = TIME.exec(s);
  if (!m) return false;
  const [h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const sign = m[4] === "-" ? -1 : 1;
  const oh = m[5] === undefined ? 0 : Number(m[5]);
  const om = m[6] === undefined ? 0 : Number(m[6]);
  if (h > 23 || mi > 59 || sec > 60 || oh > 23 || om > 59) return false;
  if (sec === 60) {
    // A leap second exists only at 23:59:60 UTC.
    const utc = (((h * 60 + mi - sign * (oh * 60 + om)) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

function validIpv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}

const CHECKS: Record<string, (s: string) => boolean> = {
  date: validDate,
  time: validTime,
  "date-time": (s) => {
    const i = s.search(/[tT]/);
    return i === 10 && validDate(s.slice(0, i)) && validTime(s.slice(i + 1));
  },
  email: (s) => /^[^\s@]+@[^\s@]+$/.test(s) && !s.startsWith(".") && !/\.\.|\.@/.test(s),
  ipv4: validIpv4,
  uuid: (s) => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s),
};

/** A checker when this draft asserts this format, else null (an annotation only). */
export function formatCheck(draft: Draft, format: string): ((s: string) => boolean) | null {
  if (draft >= 2019) return null;
  if (draft === 4 && (format === "date" || format === "time" || format === "uuid")) return null; // not draft-04 formats
  return Object.hasOwn(CHECKS, format) ? CHECKS[format] : null; // never Object.prototype's members
}
