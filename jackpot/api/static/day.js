"use strict";
// The gaming day report (day.html), with an auditor's key: a closed day's figures, charts and
// registers to read and print.
let session = null;
const WIDTH = 1000;  // every chart's drawing width (its viewBox); the page scales it

// ---- sign in: the console's key, kept in the tab's session ----
async function start() {
  if (!sessionStorage.getItem(KEY_SLOT)) { document.getElementById("login").hidden = false; return; }
  try {
    session = await api("GET", "/v1/session");
  } catch (e) {
    sessionStorage.removeItem(KEY_SLOT);
    document.getElementById("login").hidden = false;
    document.getElementById("login-error").textContent =
      e.status === 401 ? "This key is not known, or it was revoked." : e.message;
    return;
  }
  casinoZone = session.time_zone;
  document.getElementById("who").textContent = session.person + " · " + session.role;
  document.getElementById("login").hidden = true;
  let days;
  try {
    days = (await api("GET", "/v1/accounting/days")).days;
  } catch (e) {
    return problem(e.status === 403 ? "The day's report is for accounting: sign in with an auditor key."
                                    : "The closed days could not be read: " + e.message);
  }
  if (!days.length) return problem("No gaming day has been closed yet.");
  const wanted = new URLSearchParams(location.search).get("day") || days[days.length - 1].day;
  const choice = document.getElementById("day-choice");
  choice.replaceChildren(...days.slice().reverse().map((d) => el("option", { value: d.day }, d.day)));
  choice.value = wanted;
  await show(wanted);
}
document.getElementById("login-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY_SLOT, document.getElementById("key").value.trim());
  start();
});
document.getElementById("day-choice").addEventListener("change", (event) => {
  history.replaceState(null, "", "?day=" + event.target.value);
  show(event.target.value);
});
document.getElementById("print").addEventListener("click", () => window.print());
function problem(text) {
  const main = document.getElementById("report");
  main.hidden = false;
  main.replaceChildren(el("section", {}, el("p", { class: "error" }, text)));
}

// ---- the report ----
async function show(day) {
  let statement, timeline;
  try {
    [statement, timeline] = await Promise.all([
      api("GET", "/v1/accounting/days/" + day), api("GET", "/v1/accounting/days/" + day + "/timeline")]);
  } catch (e) {
    return problem("The report of " + day + " could not be read: " + e.message);
  }
  document.title = "Gaming day " + day + " — report";
  const main = document.getElementById("report");
  main.hidden = false;
  main.replaceChildren(
    titleSection(statement, timeline), poolsSection(statement), metersSection(statement, timeline),
    tablesSection(statement), hitsSection(statement), ...(statement.voids ? [voidsSection(statement)] : []),
    correctionsSection(timeline, statement.day, statement),
    countsSection(statement), signOff(), el("p", { class: "note" }, "Printed " + zoned(Date.now(), true) + " (" +
      casinoZone + ") by " + session.person + ". Amounts in dollars and cents; the pools' carry the digits of a " +
      "ten-thousandth of a cent after the cents where there are any, as the day's files " +
      "(pools.csv, tables.csv, hits.csv, voids.csv) do."));
  printedPages(statement);
  document.body.dataset.day = day;  // drawn: for whoever waits on it
}
function sum(rows, key) { return rows.reduce((n, r) => n + Number(r[key] || 0), 0); }
function at(iso) { return Date.parse(iso); }
function cell(text, cls) { return el("td", cls ? { class: cls } : {}, text === undefined || text === null ? "" : String(text)); }
function money(cents) { return cell(dollars(cents), "num"); }
function headers(...names) {
  return el("thead", {}, el("tr", {}, ...names.map((n) => {
    const [text, cls] = Array.isArray(n) ? n : [n, ""];
    return el("th", cls ? { class: cls } : {}, text);
  })));
}
function hold(win, handle) {  // win ÷ handle in percent, two decimals, half away from zero, exact
  if (!handle) return "—";
  const part = BigInt(Math.abs(win)) * 10000n, whole = BigInt(Math.abs(handle));
  let hundredths = part / whole;
  if ((part % whole) * 2n >= whole) hundredths += 1n;
  const sign = (win < 0) !== (handle < 0) && win !== 0 ? "−" : "";
  return sign + (hundredths / 100n) + "." + String(hundredths % 100n).padStart(2, "0") + "%";
}

function titleSection(s, t) {
  const handle = sum(s.tables, "handle_cents") - sum(s.tables, "voided_handle_cents");
  const win = sum(s.tables, "win_cents");
  // what the pools owe, rolled over the day as the "Jackpots owed" table does: owed at open +
  // won − paid − voided = owed at close (layout 5); the hand pays the same way beside them, as
  // the "Hand pays owed" table does (layout 6, D300)
  const owes = s.pools.length && "owed_at_open_cents" in s.pools[0];
  const handOwes = s.pools.length && "hand_pays_cents" in s.pools[0];
  const count = (key) => sum(s.pools, key + "_count") + " · " + dollars(sum(s.pools, key + "_cents"));
  const handPays = s.hits.filter((h) => h.kind !== "meter");
  const roll = (title, id, tiles) => el("div", { class: "roll", id }, el("h3", {}, title),
    el("div", { class: "tiles" }, ...tiles));
  return el("section", { class: "title" },
    el("h2", {}, "Gaming day " + s.day + " — Casino War progressive"),
    el("div", { class: "muted" }, zoned(at(s.start), true) + " to " + zoned(at(s.end), true) + " (" +
      s.time_zone + ") · closed " + zoned(at(s.closed_at), true) + " ",
      el("span", { class: "badge " + (s.balanced ? "good" : "bad") },
        s.balanced ? "Every pool balanced" : "A pool did not balance"),
      s.table_counts_balanced === false ? el("span", { class: "badge bad", id: "counts-badge" },
        "A table's own counts differ") : null,
      // the signed checkpoint made at the day's close (D257)
      el("span", { id: "checkpoint-note" }, " · journals checkpoint " + (s.checkpoint
        ? "#" + s.checkpoint.id + " · " + s.checkpoint.short + " · " + zoned(s.checkpoint.ts, true)
        : "not yet covered"))),
    el("div", { class: "files", id: "files" }, el("span", { class: "label" }, "The day's files:"),
      ...dayFiles(s).map((name) => el("button", {
        type: "button", "data-file": name, onclick: (event) => save(event.target, s.day, name) },
        name + ".csv")),
      el("span", { class: "saved", id: "files-said", role: "status" })),
    el("div", { class: "tiles" },
      tile("Handle (net of voids)", dollars(handle)), tile("Win", dollars(win)),
      tile("Hold", hold(win, handle)),
      ...(owes ? [] : [tile("Jackpots and hand pays won", s.hits.length + " · " + dollars(sum(s.hits, "amount_cents")))]),
      // before layout 6 no figure says which hand pays were paid, voided or still owed: the
      // register's count, every status at close
      !handOwes && handPays.length ? tile("Hand pays held (any status at close)", handPays.length + " · "
        + dollars(sum(handPays, "amount_cents")), "hand_pays") : null,
      tile("Liability at close (pools)", dollars(sum(s.pools, "liability_cents"))),
      tile("Voids and corrections", String(s.voids ? s.voids.length
        + t.corrections.filter((c) => c.kind !== "void").length : t.corrections.length))),
    owes ? roll("Jackpots owed", "jackpots-roll", [
      tile("Owed at open", count("owed_at_open"), "owed_at_open"),
      tile("+ Won", count("jackpots"), "won"), tile("− Paid", count("paid_jackpots"), "paid"),
      tile("− Voided", count("voided_jackpots"), "voided"),
      tile("= Owed at close", count("unpaid_jackpots"), "owed")]) : null,
    handOwes ? roll("Hand pays owed", "hand-pays-roll", [
      tile("Owed at open", count("hand_pays_owed_at_open"), "hand_owed_at_open"),
      tile("+ Held", count("hand_pays"), "hand_held"), tile("− Paid", count("paid_hand_pays"), "hand_paid"),
      tile("− Voided", count("voided_hand_pays"), "hand_voided"),
      tile("= Owed at close", count("unpaid_hand_pays"), "hand_owed")]) : null);
}
function save(button, day, name) {
  return saveDayFile(button, day, name, document.getElementById("files-said"));
}
// each printed page names the report, the day and its number (CSS page margin boxes), in a
// constructed style sheet: the page's policy allows no inline style
let pageBoxes = null;
function printedPages(s) {
  if (!pageBoxes) {
    pageBoxes = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageBoxes];
  }
  const quoted = (text) => JSON.stringify(text);
  pageBoxes.replaceSync("@page { @top-left { content: " + quoted("Gaming day " + s.day
    + " — Casino War progressive") + "; font-size: 8pt; } @top-right { content: "
    + quoted("closed " + zoned(at(s.closed_at), true) + " (" + s.time_zone + ")")
    + "; font-size: 8pt; } @bottom-right { content: \"Page \" counter(page) \" of \" counter(pages);"
    + " font-size: 8pt; } }");
}
// who prepared, reviewed and approved the day: signed on paper
function signOff() {
  return el("section", { class: "sign-off", id: "sign-off" }, el("h2", {}, "Sign-off"),
    el("div", { class: "signatures" }, ...["Prepared by", "Reviewed by (accounting)",
      "Approved by (audit)"].map((role) => el("div", {},
        el("div", { class: "line" }), el("div", {}, role + " — name, signature, date")))));
}
function tile(label, value, name) {
  return el("div", { class: "tile", "data-tile": name || "" }, el("div", { class: "label" }, label),
    el("div", { class: "value" }, value));
}
// the day's files, as the controller names them (/v1/session's day_files); a day closed before
// statement layout 5 has no voids section, and no voids file
function dayFiles(s) {
  return (session.day_files || ["pools", "tables", "hits", "voids", "table_counts"]).filter((name) => name in s);
}

// A pool's amounts are exact: whole cents and the sub-cent units (a ten-thousandth of a cent)
// the statement carries beside them. Printed to the cent, with the four sub-cent digits where
// there are any, so that every row and total adds up from its own printed figures.
const UNIT = 10000n;
function poolUnits(row, name) {
  return BigInt(row[name + "_cents"] || 0) * UNIT + BigInt(row[name + "_subcent_units"] || 0);
}
function exact(u) {
  const negative = u < 0n, abs = negative ? -u : u;
  const cents = abs / UNIT, rest = abs % UNIT;
  return (negative ? "−" : "") + dollars(String(cents)) + (rest ? String(rest).padStart(4, "0") : "");
}
function exactCell(u) { return cell(exact(u), "num"); }
// each pool's day, in the terms of its formula: opening + created + contributions − jackpots
// + seed funding + adjustments + voids (net) = closing
const POOL_TERMS = [
  ["opening", "Opening balance", (p) => poolUnits(p, "opening_meter") + poolUnits(p, "opening_reserve")],
  ["created", "Created with", (p) => poolUnits(p, "initial_seed")],
  ["contributions", "Contributions", (p) => poolUnits(p, "contributions_meter") + poolUnits(p, "contributions_reserve")],
  ["jackpots", "− Jackpots won", (p) => BigInt(p.jackpots_cents) * UNIT],
  ["seed", "Seed funding", (p) => poolUnits(p, "seed_funding")],
  ["adjustments", "Adjustments", (p) => poolUnits(p, "adjustments")],
  ["voids", "Voids (net)", (p) => returned(p) - poolUnits(p, "voided_contributions") - poolUnits(p, "seed_returned")],
  ["closing", "Closing balance", (p) => poolUnits(p, "closing_meter") + poolUnits(p, "closing_reserve")],
];
// the jackpots voided rounds put back on the meter (before statement layout 5: voided_jackpots)
function returned(p) {
  return BigInt("returned_jackpots_cents" in p ? p.returned_jackpots_cents : p.voided_jackpots_cents) * UNIT;
}
// what the pool owes: jackpots won (this day or before) not yet paid, rolled over the day
const OWED_TERMS = [
  ["owed_at_open", "Owed at open"], ["jackpots", "+ Won"], ["paid_jackpots", "− Paid"],
  ["voided_jackpots", "− Voided"], ["unpaid_jackpots", "= Owed at close"],
];
// the hand pays each pool's journal holds (fixed and envy pays held for verification), rolled
// the same way (layout 6, D300)
const HAND_TERMS = [
  ["hand_pays_owed_at_open", "Owed at open"], ["hand_pays", "+ Held"], ["paid_hand_pays", "− Paid"],
  ["voided_hand_pays", "− Voided"], ["unpaid_hand_pays", "= Owed at close"],
];
function rollTable(s, terms, id, title, note) {
  const figure = (p, key) => p[key + "_count"] + " · " + dollars(p[key + "_cents"]);
  const rows = s.pools.map((p) => el("tr", { "data-pool": p.pool }, cell(p.pool),
    ...terms.map(([key]) => el("td", { class: "num", "data-term": key }, figure(p, key)))));
  const total = el("tr", { class: "total" }, cell("All pools"), ...terms.map(([key]) =>
    el("td", { class: "num", "data-term": key }, sum(s.pools, key + "_count") + " · "
      + dollars(sum(s.pools, key + "_cents")))));
  return el("div", { class: "owed" }, el("h3", {}, title),
    el("table", { id }, headers("Pool", ...terms.map(([, n]) => [n, "num"])),
      el("tbody", {}, ...rows, total)),
    el("p", { class: "note" }, note));
}
function owedTables(s) {
  if (!s.pools.length || !("owed_at_open_cents" in s.pools[0])) return [];  // before layout 5
  const tables = [rollTable(s, OWED_TERMS, "pools-owed", "Jackpots owed", "Count · amount. " +
    "Jackpots won this day or before and not yet paid: owed at open + won − paid − voided = " +
    "owed at close. A jackpot voided after it was paid was paid: it is in the voids below, not " +
    "here. A round's void also puts its jackpots back on the meter (the pools' voids above); a " +
    "jackpot's own void moves no money.")];
  if ("hand_pays_cents" in s.pools[0])  // layout 6
    tables.push(rollTable(s, HAND_TERMS, "hand-pays-owed", "Hand pays owed", "Count · amount. " +
      "Fixed and envy pays from the hand-pay threshold up, held for verification in the journal " +
      "of their table's first pool (they move none of its money, and are not in its liability): " +
      "owed at open + held − paid − voided (by their own void or their round's) = owed at close. " +
      "One paid and then voided was paid."));
  return [el("div", { class: "owed-pair" }, ...tables)];
}
function poolsSection(s) {
  const rows = s.pools.map((p) => el("tr", { "data-pool": p.pool }, cell(p.pool),
    ...POOL_TERMS.map(([key, , f]) => el("td", { class: "num", "data-term": key }, exact(f(p)))),
    cell(p.balanced ? "yes" : "NO", p.balanced ? "" : "error")));
  const total = el("tr", { class: "total" }, cell("All pools"),
    ...POOL_TERMS.map(([key, , f]) => el("td", { class: "num", "data-term": key },
      exact(s.pools.reduce((n, p) => n + f(p), 0n)))), cell(""));
  const close = [["closing_meter", "Meter"], ["closing_reserve", "Reserve"]];
  const atClose = s.pools.map((p) => el("tr", { "data-pool": p.pool }, cell(p.pool),
    ...close.map(([k]) => exactCell(poolUnits(p, k))),
    exactCell(poolUnits(p, "closing_meter") + poolUnits(p, "closing_reserve")),
    exactCell(BigInt(p.unpaid_jackpots_cents) * UNIT), exactCell(poolUnits(p, "liability"))));
  const closeTotal = el("tr", { class: "total" }, cell("All pools"),
    ...close.map(([k]) => exactCell(s.pools.reduce((n, p) => n + poolUnits(p, k), 0n))),
    exactCell(s.pools.reduce((n, p) => n + poolUnits(p, "closing_meter") + poolUnits(p, "closing_reserve"), 0n)),
    exactCell(s.pools.reduce((n, p) => n + BigInt(p.unpaid_jackpots_cents) * UNIT, 0n)),
    exactCell(s.pools.reduce((n, p) => n + poolUnits(p, "liability"), 0n)));
  return el("section", {}, el("h2", {}, "Pools"),
    el("table", { id: "pools" }, headers("Pool", ...POOL_TERMS.map(([, n]) => [n, "num"]), "Balanced"),
      el("tbody", {}, ...rows, total)),
    el("p", { class: "note" }, "Each row: opening balance (meter and reserve) + created with (a " +
      "pool's starting seed, on the day it was made) + contributions − jackpots won + seed " +
      "funding + adjustments + voids (jackpots given back, less contributions taken back and " +
      "seed returned) = closing balance. Amounts are exact: after the cents, the digits of a " +
      "ten-thousandth of a cent where there are any."),
    el("h3", {}, "At close"),
    el("table", { id: "pools-close" }, headers("Pool", ["Meter", "num"], ["Reserve", "num"],
      ["Balance", "num"], ["+ Jackpots not yet paid", "num"], ["= Liability", "num"]),
      el("tbody", {}, ...atClose, closeTotal)), ...owedTables(s));
}

function metersSection(s, t) {
  const charts = Object.entries(t.meters).map(([pool, points]) =>
    el("div", { class: "chart", "data-meter": pool }, el("h3", {}, "Pool " + pool + " over the day"),
      meterChart(points, t.start_ms, t.end_ms,
        s.hits.filter((h) => h.pool === pool && h.kind === "meter"))));
  return el("section", {}, el("h2", {}, "Meters"),
    charts.length ? el("div", { class: "charts" }, ...charts) : el("p", { class: "empty" }, "No pool."));
}
function meterChart(points, start, end, hits) {
  const H = 200, left = 92, right = 12, top = 14, bottom = 28;
  const values = points.map((p) => p[1]);
  let low = Math.min(...values), high = Math.max(...values);
  if (!values.length) { low = 0; high = 1; }
  if (high === low) high = low + 100;
  const pad = Math.ceil((high - low) * 0.06);
  low = Math.max(0, low - pad); high = high + pad;
  const x = (ms) => left + (ms - start) * (WIDTH - left - right) / (end - start);
  const y = (cents) => top + (high - cents) * (H - top - bottom) / (high - low);
  const svg = svgEl("svg", { viewBox: "0 0 " + WIDTH + " " + H, role: "img",
    "aria-label": "the meter from " + dollars(values[0] || 0) + " to " + dollars(values[values.length - 1] || 0) });
  for (let i = 0; i <= 3; i++) {
    const cents = Math.round(low + (high - low) * i / 3);
    svg.append(svgEl("line", { class: "grid", x1: left, x2: WIDTH - right, y1: y(cents), y2: y(cents) }),
      svgText(left - 6, y(cents) + 4, dollars(cents).replace(/\.\d\d$/, ""), "end"));
  }
  const hours = (end - start) / 3600000;
  for (let h = 0; h <= hours; h += 3) {
    const ms = start + h * 3600000;
    const anchor = h === 0 ? "start" : h + 3 > hours ? "end" : "middle";  // inside the frame
    svg.append(svgText(x(ms), H - 8, zoned(ms).slice(0, 5), anchor),
      svgEl("line", { class: "grid", x1: x(ms), x2: x(ms), y1: H - bottom, y2: H - bottom + 4 }));
  }
  if (points.length)
    svg.append(svgEl("path", { class: "line", d: points.map((p, i) => (i ? "L" : "M") +
      x(p[0]).toFixed(1) + " " + y(p[1]).toFixed(1)).join(" ") }));
  for (const h of hits) {
    const ms = at(h.time);
    const marker = svgEl("path", { class: "hit", d: "M" + x(ms) + " " + top + " l-5 -9 h10 z" });
    marker.append(svgEl("title", {}, h.payout + " · " + dollars(h.amount_cents) + " · " + zoned(ms)));
    svg.append(marker);
  }
  return svg;
}

function tablesSection(s) {
  // each row foots: handle − fixed − envy − jackpot pays − voided handle + voided pays = win
  const voidedPays = (t) => t.voided_fixed_pays_cents + t.voided_envy_pays_cents + t.voided_jackpot_pays_cents;
  const rows = s.tables.map((t) => el("tr", { "data-table": t.table }, cell(t.table),
    cell(t.rounds, "num"), cell(t.side_bets, "num"), money(t.handle_cents),
    money(t.fixed_pays_cents), money(t.envy_pays_cents), money(t.jackpot_pays_cents),
    cell(t.voided_rounds + " · " + t.voided_bets, "num"), money(t.voided_handle_cents), money(voidedPays(t)),
    money(t.win_cents), cell(hold(t.win_cents, t.handle_cents - t.voided_handle_cents), "num")));
  const handle = sum(s.tables, "handle_cents"), voided = sum(s.tables, "voided_handle_cents");
  const total = el("tr", { class: "total" }, cell("All tables"), cell(sum(s.tables, "rounds"), "num"),
    cell(sum(s.tables, "side_bets"), "num"), money(handle), money(sum(s.tables, "fixed_pays_cents")),
    money(sum(s.tables, "envy_pays_cents")), money(sum(s.tables, "jackpot_pays_cents")),
    cell(sum(s.tables, "voided_rounds") + " · " + sum(s.tables, "voided_bets"), "num"), money(voided),
    money(s.tables.reduce((n, t) => n + voidedPays(t), 0)),
    money(sum(s.tables, "win_cents")), cell(hold(sum(s.tables, "win_cents"), handle - voided), "num"));
  return el("section", {}, el("h2", {}, "Tables"),
    el("table", { id: "tables" }, headers("Table", ["Rounds", "num"], ["Side bets", "num"],
      ["Handle", "num"], ["− Fixed pays", "num"], ["− Envy pays", "num"], ["− Jackpot pays", "num"],
      ["Voided rounds · bets", "num"], ["− Voided handle", "num"], ["+ Voided pays", "num"],
      ["= Win", "num"], ["Hold", "num"]),
      el("tbody", {}, ...rows, total)),
    el("p", { class: "note" }, "Each row: handle − fixed, envy and jackpot pays − the handle of the " +
      "day's voids + the pays they took back = win. Hold: win over the handle net of voids (— where " +
      "voids took that to nothing or below: a later day's voids beyond this day's play)."),
    el("div", { class: "chart", id: "handle-chart" }, el("h3", {}, "Handle and win by table"),
      handleChart(s.tables)));
}
function handleChart(tables) {
  const row = 26, left = 110, right = 150, top = 6;
  const H = top + tables.length * row + 6;
  const most = Math.max(1, ...tables.map((t) => t.handle_cents - t.voided_handle_cents),
    ...tables.map((t) => Math.abs(t.win_cents)));
  const w = (cents) => Math.abs(cents) * (WIDTH - left - right) / most;
  const svg = svgEl("svg", { viewBox: "0 0 " + WIDTH + " " + H, role: "img",
    "aria-label": "each table's handle, with its win inside it" });
  tables.forEach((t, i) => {
    const y0 = top + i * row, handle = t.handle_cents - t.voided_handle_cents;
    svg.append(svgText(left - 8, y0 + 17, t.table, "end"),
      svgEl("rect", { class: "handle", x: left, y: y0 + 3, width: w(handle).toFixed(1), height: row - 8 }),
      svgEl("rect", { class: t.win_cents < 0 ? "loss" : "win", x: left, y: y0 + 8,
        width: w(t.win_cents).toFixed(1), height: row - 18 }),
      svgText(left + w(Math.max(handle, Math.abs(t.win_cents))) + 8, y0 + 17,
        dollars(handle).replace(/\.\d\d$/, "") + " · hold " + hold(t.win_cents, handle)));
  });
  return svg;
}

// a meter hit's level: a hand level by its outcome; a must-hit-by or mystery level by the
// trigger its hit revealed, and the commitment that trigger opens (layout 3 and later)
function triggered(h) { return h.level === "must_hit_by" || h.level === "mystery"; }
function wonBy(h) {
  if (!triggered(h)) return cell(words(h.outcome));
  return el("td", { class: "reveal" }, "trigger " + dollars(h.trigger) + " reached",
    el("br"), el("span", { class: "commitment", title: h.commitment }, "commitment " + h.commitment.slice(0, 16) + "…"));
}
function levelsLine(s) {
  const by = new Map();
  for (const h of s.hits.filter((h) => h.kind === "meter")) {
    const key = h.pool + (triggered(h) ? " (" + levelWords(h.level) + ")" : "");
    const seen = by.get(key) || { count: 0, cents: 0 };
    by.set(key, { count: seen.count + 1, cents: seen.cents + h.amount_cents });
  }
  if (!by.size) return null;
  return el("p", { class: "note", id: "hits-by-level" }, "Hits by level: " + [...by.entries()]
    .map(([level, v]) => level + " " + v.count + " · " + dollars(v.cents)).join("; ") + ".");
}
// who voided a hit, on whose ask and why (layout 5: void_asked_by and void_reason)
function voidWords(h) {
  if (!h.voided_by) return "";
  const asked = h.void_asked_by && h.void_asked_by !== h.voided_by ? " on the ask of " + h.void_asked_by : "";
  return "voided by " + h.voided_by + asked + (h.void_reason ? ": " + h.void_reason : "");
}
function hitsSection(s) {
  const rows = s.hits.map((h) => el("tr", { "data-payout": h.payout }, cell(onDay(at(h.time), s.day)),
    cell(h.payout), cell(h.kind === "meter" ? "pool " + h.pool + (triggered(h) ? " · " + levelWords(h.level) : "") : words(h.kind)),
    cell(h.table + " · " + h.spot), wonBy(h), money(h.amount_cents),
    cell(words(h.status_at_close)), cell(h.paid_by), cell(h.witness), cell(h.slip),
    cell([h.verified_by, h.approved_by ? "approved " + h.approved_by : "",
          h.disputed_by ? "disputed " + h.disputed_by : "", voidWords(h)]
      .filter(Boolean).join(" · "))));
  return el("section", { class: "long" }, el("h2", {}, "Hit register"), levelsLine(s),
    rows.length ? el("table", { id: "hits" }, headers("Time", "Payout", "Pays from", "Table · spot",
      "Won by", ["Amount", "num"], "At close", "Paid by", "Witness", "Slip", "Verified by"),
      el("tbody", {}, ...rows, el("tr", { class: "total" }, cell("All"), cell(rows.length + " won"),
        cell(""), cell(""), cell(""), money(sum(s.hits, "amount_cents")), cell(""), cell(""), cell(""),
        cell(""), cell(""))))
      : el("p", { class: "empty" }, "No jackpot or hand pay was won this day."));
}

// a time of the gaming day, with its date where that is not the day's own (a gaming day runs
// past midnight): the printed report is read long after, away from the page's heading
function onDay(ms, day) { return dated(ms, day); }
// every void of the day with who asked, who approved and why (layout 5's voids section)
function voidsSection(s) {
  const what = (v) => v.kind === "round"
    ? "Spot" + (v.spots.includes(" ") ? "s " : " ") + v.spots + " voided" + (v.whole ? " · round void whole" : "")
    : "Payout voided (was " + words(v.voided_from).toLowerCase() + ")";
  const where = (v) => "table " + v.table + " · round " + v.round + (v.kind === "payout" ? " · " + v.payout : "");
  // a round's void takes back its pays; a payout's own void cancels what is owed and moves no
  // money (D52): two columns, as voids.csv keeps them
  const pays = (v) => v.fixed_pays_cents + v.envy_pays_cents + v.jackpot_pays_cents;
  const round = (v, text) => v.kind === "round" ? text : "";
  const rows = s.voids.map((v) => el("tr", { "data-kind": v.kind, "data-round": v.round },
    cell(onDay(at(v.time), s.day)), cell(what(v)), cell(where(v)),
    cell(round(v, v.bets + " · " + dollars(v.handle_cents)), "num"), cell(round(v, dollars(pays(v))), "num"),
    cell(round(v, v.jackpots), "num"), cell(v.kind === "payout" ? dollars(v.payout_amount_cents) : "", "num"),
    cell(v.asked_by), cell(v.approved_by || "—"),
    cell(v.reason + (v.approval_note ? " (approval: " + v.approval_note + ")" : ""))));
  const payouts = s.voids.filter((v) => v.kind === "payout");
  const total = el("tr", { class: "total" }, cell("All"), cell(rows.length + " voids"), cell(""),
    cell(sum(s.voids, "bets") + " · " + dollars(sum(s.voids, "handle_cents")), "num"),
    money(s.voids.reduce((n, v) => n + pays(v), 0)), cell(sum(s.voids, "jackpots"), "num"),
    cell(payouts.length + " · " + dollars(sum(payouts, "payout_amount_cents")), "num"),
    cell(""), cell(""), cell(""));
  return el("section", { class: "long" }, el("h2", {}, "Voids"),
    rows.length ? el("table", { id: "voids" }, headers("Time", "What", "Where", ["Bets · handle", "num"],
      ["Pays taken back", "num"], ["Jackpots cancelled", "num"], ["Payout voided", "num"], "Asked by",
      "Approved by", "Reason"),
      el("tbody", {}, ...rows, total))
      : el("p", { class: "empty" }, "Nothing was voided this day."),
    el("p", { class: "note" }, "A void is counted in the day it is made, whatever the day of its round. " +
      "A round's void takes back its bets' handle and pays (the tables' voided columns), and cancels " +
      "its jackpots (counted in its row, not again); a payout's own void cancels that jackpot or hand " +
      "pay and moves no money. Approved by: the second person a large void needs (— : one person's void)."));
}
function correctionsSection(t, day, s) {
  if (s.voids) return adjustmentsSection(t, day);
  const rows = t.corrections.map((c) => el("tr", { "data-kind": c.kind }, cell(onDay(c.ts, day)),
    cell({ void: "Round voided", adjustment: "Adjustment", transfer: "Transfer" }[c.kind] || words(c.kind)),
    cell(c.kind === "void" ? "table " + c.table + " · round " + c.round + " · " + c.target
                           : "pool " + c.pool + (c.target ? " · " + c.target : "")),
    cell(c.kind === "void" ? "wagers " + dollars(c.wagered_cents) + " · pays " + dollars(c.pays_cents)
                           : dollars(c.amount_cents), "num"),
    cell(c.person + (c.approver ? " · approved by " + c.approver : "")), cell(c.reason)));
  return el("section", {}, el("h2", {}, "Voids and corrections"),
    rows.length ? el("table", { id: "corrections" }, headers("Time", "What", "Where", ["Amount", "num"],
      "By", "Reason"), el("tbody", {}, ...rows))
      : el("p", { class: "empty" }, "No round was voided and no meter adjusted this day."),
    el("p", { class: "note" }, "A void is counted in the day it is made, whatever the day of its round; " +
      "a jackpot voided after it was paid is in the hit register, voided."));
}

// the day's adjustments and transfers, beside the voids section (layout 5)
function adjustmentsSection(t, day) {
  const rows = t.corrections.filter((c) => c.kind !== "void").map((c) => el("tr", { "data-kind": c.kind },
    cell(onDay(c.ts, day)), cell(c.kind === "transfer" ? "Transfer" : "Adjustment"),
    cell("pool " + c.pool + (c.target ? " · " + c.target : "")), exactCell(BigInt(c.amount_cents) * UNIT
      + BigInt(c.amount_subcent_units || 0)), cell(c.person), cell(c.reason)));
  return el("section", {}, el("h2", {}, "Adjustments and transfers"),
    rows.length ? el("table", { id: "corrections" }, headers("Time", "What", "Where", ["Amount", "num"],
      "By", "Reason"), el("tbody", {}, ...rows))
      : el("p", { class: "empty" }, "No meter was adjusted and no balance transferred this day."));
}

// the tables' own counts: the money figures in cents on the wire, in dollars here, each
// figure named by whose it is (the table's count, or the controller's)
const COUNTED_MONEY = new Set(["handle", "fixed", "envy", "jackpot"]);
function countsSection(s) {
  const shown = (name, v) => COUNTED_MONEY.has(name) ? dollars(v) : String(v);
  const differences = (c) => Object.keys(c).filter((k) => k.startsWith("table_")
    && c["controller_" + k.slice(6)] !== c[k]).map((k) => {
      const name = k.slice(6);
      return words(name) + ": table's " + shown(name, c[k]) + ", controller's "
        + shown(name, c["controller_" + name]);
    }).join("; ");
  const rows = s.table_counts.map((c) => el("tr", { "data-table": c.table }, cell(c.table),
    cell(c.matches ? "match" : "DIFFER", c.matches ? "" : "error"),
    cell(c.counted_through ? onDay(at(c.counted_through), s.day) : "—"), cell(c.table_rounds, "num"),
    cell(c.controller_rounds, "num"), cell(differences(c))));
  return el("section", {}, el("h2", {}, "Tables' own counts"),
    rows.length ? el("table", { id: "counts" }, headers("Table", "Against the controller", "Counted to",
      ["Rounds, table's count", "num"], ["Rounds, controller's", "num"], "Differences"),
      el("tbody", {}, ...rows)) : el("p", { class: "empty" },
      "No table sent its counts of this day."),
    rows.length ? el("p", { class: "note" }, "Each table counts what it was answered up to its last " +
      "round before it reported (counted to), and the controller's figures are counted to the same " +
      "time: a round after it is in neither, while the tables above hold the whole day. Amounts in " +
      "dollars and cents.") : null);
}

// ---- SVG ----
function svgEl(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function svgText(x, y, text, anchor) {
  return svgEl("text", { x, y, "text-anchor": anchor || "start" }, text);
}

start();
