// The console's and the day report's common ground: money and times as people read them,
// elements, and the API called with the person's own key (kept in the tab's session only).
"use strict";
const KEY_SLOT = "jackpot.console.key";

// ---- money and time: integer cents formatted as text, never through floating point ----
function dollars(cents) {
  const text = String(cents);
  const negative = text.startsWith("-");
  const digits = (negative ? text.slice(1) : text).padStart(3, "0");
  const whole = digits.slice(0, -2).replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (negative ? "−$" : "$") + whole + "." + digits.slice(-2);
}
function units(u) {  // 1/10,000 cent units, as a string or number of an integer: whole cents
  const text = String(u);
  const negative = text.startsWith("-");
  const digits = negative ? text.slice(1) : text;
  const cents = digits.length > 4 ? digits.slice(0, -4) : "0";
  return dollars((negative ? "-" : "") + cents);
}
function percentBp(bp) { return (bp / 100).toFixed(2) + "%"; }  // a rate, not money
let casinoZone = "UTC";  // the casino's time zone, as /v1/session names it once signed in
const zonedFormats = new Map();  // made once per zone and form: a page shows hundreds of times
function zoned(ms, withDate) {
  if (ms === null || ms === undefined || ms === "") return "—";
  const form = casinoZone + (withDate ? " dated" : "");
  if (!zonedFormats.has(form)) {
    const options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false,
                      timeZone: casinoZone };
    if (withDate) Object.assign(options, { year: "numeric", month: "2-digit", day: "2-digit" });
    zonedFormats.set(form, new Intl.DateTimeFormat("en-CA", options));
  }
  return zonedFormats.get(form).format(new Date(Number(ms)));
}
// a time as people read it beside others: the time alone on `day` (YYYY-MM-DD; by default
// today, on the casino's calendar), with its date on any other day, "2026-11-27, 23:58:10":
// a bare time is read as today's (docs/DECISIONS.md D283)
function casinoDate(ms) { return zoned(ms, true).slice(0, 10); }
function dated(ms, day) {
  if (ms === null || ms === undefined || ms === "") return "—";
  const full = zoned(ms, true);
  return full.startsWith(day || casinoDate(Date.now())) ? zoned(ms) : full;
}
function age(ms) {
  const s = Math.max(0, Math.floor((Date.now() - Number(ms)) / 1000));
  if (s < 60) return s + " s";
  const m = Math.floor(s / 60);
  if (m < 60) return m + " min " + (s % 60) + " s";
  return Math.floor(m / 60) + " h " + (m % 60) + " min";
}
function words(name) {
  const text = String(name || "").replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
// a level's type as people name it (docs/RULES.md §4)
const LEVEL_WORDS = { hand: "hand", must_hit_by: "must-hit-by", mystery: "mystery" };
function levelWords(level) { return LEVEL_WORDS[level] || words(level); }
// what won a payout: its hand, or a must-hit-by or mystery level's trigger, reached
function wonText(p) {
  if (p.trigger === undefined || p.trigger === null) return words(p.outcome);
  return words(levelWords(p.level)) + ": trigger " + dollars(p.trigger) + " reached";
}
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}
function badge(text, cls) { return el("span", { class: "badge " + (cls || text) }, words(text)); }

// ---- the API, with the person's key ----
class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || ("HTTP " + status));
    this.status = status; this.code = error.code || ""; this.field = error.field || "";
  }
}
async function api(method, path, body) {
  const headers = { "Authorization": "Bearer " + sessionStorage.getItem(KEY_SLOT) };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, cache: "no-store",
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// a file the API serves to a person's key (a CSV), saved as the API names it: a link cannot
// carry the key, so the page fetches it with the key and hands the browser the bytes
async function download(path, fallbackName) {
  const headers = { "Authorization": "Bearer " + sessionStorage.getItem(KEY_SLOT) };
  const response = await fetch(path, { headers, cache: "no-store" });
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(response.status, data);
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const link = el("a", { href: URL.createObjectURL(await response.blob()),
    download: named ? named[1] : fallbackName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  return link.download;
}

// a closed gaming day's file (GET /v1/accounting/days/{day}/{name}.csv) saved from its
// button, and said in a status line: what was saved, or why not
async function saveDayFile(button, day, name, said) {
  button.disabled = true;
  try {
    const saved = await download("/v1/accounting/days/" + day + "/" + name + ".csv",
      "gaming-day-" + day + "-" + name + ".csv");
    said.textContent = "Saved " + saved + ".";
    said.className = "saved";
  } catch (e) {
    said.textContent = name + ".csv of " + day + " could not be read: " + e.message;
    said.className = "saved error";
  } finally {
    button.disabled = false;
  }
}

// the casino's wall clock: an instant as a datetime-local input shows it, and back
function wallParts(ms) {
  const f = new Intl.DateTimeFormat("en-CA", { timeZone: casinoZone, hourCycle: "h23",
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
    second: "2-digit" });
  return Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
}
