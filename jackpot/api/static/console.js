"use strict";
const POLL_MS = 2000;
let session = null;
let timer = null;
let zoneTime = null;
let state = { payouts: [], pools: [], tables: [], activity: [], voids: [] };

// ---- sign in and out ----
async function signIn(key) {
  sessionStorage.setItem(KEY_SLOT, key);
  try {
    session = await api("GET", "/v1/session");
  } catch (e) {
    sessionStorage.removeItem(KEY_SLOT);
    session = null;
    throw e;
  }
  document.getElementById("login").hidden = true;
  document.getElementById("app").hidden = false;
  document.getElementById("signout").hidden = false;
  document.getElementById("mute").hidden = false;
  showMute();
  casinoZone = session.time_zone;
  const who = document.getElementById("who");  // the name; the number on a long press or hover
  who.textContent = session.person + " · " + session.role + (session.role === "auditor" ? " (read only)" : "");
  who.title = session.shown || session.person;
  document.body.dataset.role = session.role;
  document.getElementById("day-report").hidden = session.role !== "auditor";
  tick();
  await refresh();
  timer = setInterval(refresh, POLL_MS);
  startShift();
  searchHistory(false);
  loadDays();
  daysTimer = setInterval(loadDays, DAYS_MS);
}
function signOut() {
  sessionStorage.removeItem(KEY_SLOT);
  session = null;
  clearInterval(timer);
  clearInterval(daysTimer);
  document.getElementById("days-section").hidden = true;
  document.getElementById("app").hidden = true;
  document.getElementById("signout").hidden = true;
  document.getElementById("mute").hidden = true;
  document.getElementById("alert-badge").hidden = true;
  document.getElementById("day-report").hidden = true;
  known = null;
  document.title = "Progressive console";
  document.getElementById("who").textContent = "";
  document.getElementById("login").hidden = false;
  document.getElementById("key").value = "";
  banner("");
}
function isOperator() { return session && session.role === "operator"; }

document.getElementById("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const out = document.getElementById("login-error");
  out.textContent = "";
  try {
    await signIn(document.getElementById("key").value.trim());
  } catch (e) {
    out.textContent = e.status === 401 ? "This key is not known, or it was revoked."
      : e.status === 403 ? "This key is not an operator or auditor key."
      : "The controller did not answer: " + e.message;
  }
});
document.getElementById("signout").addEventListener("click", signOut);

// ---- the live view ----
function banner(text) {
  const b = document.getElementById("banner");
  b.textContent = text;
  b.classList.toggle("show", Boolean(text));
}
async function refresh() {
  try {
    const [meters, tables, pending, awaiting, disputed, activity, voids] = await Promise.all([
      api("GET", "/v1/meters"), api("GET", "/v1/tables"),
      api("GET", "/v1/payouts?status=pending&limit=200"),
      api("GET", "/v1/payouts?status=awaiting_approval&limit=200"),
      api("GET", "/v1/payouts?status=disputed&limit=200"),
      api("GET", "/v1/activity?limit=40"),
      api("GET", "/v1/voids/awaiting"),
    ]);
    state = { pools: meters.pools, tables: tables.tables, activity: activity.activity,
              voids: voids.voids, payoutVoids: voids.payouts || [],
              payouts: [...pending.payouts, ...awaiting.payouts, ...disputed.payouts]
                .sort((a, b) => Number(a.created) - Number(b.created)) };
    banner("");
    render();
  } catch (e) {
    if (e.status === 401) { signOut(); showToast("Your key is no longer valid: sign in again."); return; }
    banner("The controller is not answering (" + e.message + "). What you see may be out of date.");
  }
}
function render() {
  renderJackpots(); renderVoids(); renderPools(); renderTables(); renderActivity(); alertJackpots();
  poolChoices();
  if (shift && shift.open) {  // a shift running until now hands over what waits now
    shift.waiting = waitingNow(Date.now());
    renderShift();
  }
}

// ---- a jackpot arriving: a badge and a count in the tab's title always, a chime unless muted
let known = null;          // the ids of the jackpots waiting last time (null: not read yet)
let muted = false;
try { muted = localStorage.getItem("console-muted") === "1"; } catch (e) { /* private mode */ }
function alertJackpots() {
  const waiting = state.payouts.filter((p) => p.status === "pending");
  const ids = new Set(waiting.map((p) => p.id));
  const arrived = known === null ? [] : waiting.filter((p) => !known.has(p.id));
  known = ids;
  const badge = document.getElementById("alert-badge");
  badge.hidden = waiting.length === 0;
  badge.textContent = waiting.length === 1 ? "1 jackpot" : waiting.length + " jackpots";
  badge.title = "Jackpots waiting for verification";
  document.title = (waiting.length ? "(" + waiting.length + ") " : "") + "Progressive console";
  if (!arrived.length) return;
  badge.classList.remove("new"); void badge.offsetWidth; badge.classList.add("new");
  document.body.dataset.alerted = arrived[arrived.length - 1].id;  // the newest announced
  if (!muted) chime();
}
function chime() {
  try {
    const audio = new (window.AudioContext || window.webkitAudioContext)();
    for (const [i, hz] of [880, 1175, 1568].entries()) {
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, audio.currentTime + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.3, audio.currentTime + i * 0.18 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + i * 0.18 + 0.5);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + i * 0.18);
      tone.stop(audio.currentTime + i * 0.18 + 0.55);
    }
    document.body.dataset.chimes = String(Number(document.body.dataset.chimes || 0) + 1);
  } catch (e) { /* no sound on this device: the badge says it */ }
}
function showMute() {
  const button = document.getElementById("mute");
  button.querySelector(".slash").style.display = muted ? "" : "none";
  button.setAttribute("aria-label", muted ? "Sound off" : "Sound on");
  button.setAttribute("aria-pressed", String(muted));
  button.title = muted ? "A jackpot arriving makes no sound: click to hear it"
                       : "A jackpot arriving chimes: click to mute";
}
document.getElementById("mute").addEventListener("click", () => {
  muted = !muted;
  try { localStorage.setItem("console-muted", muted ? "1" : "0"); } catch (e) { /* private mode */ }
  showMute();
});

// from the approval threshold (JACKPOT_HANDPAY_APPROVAL_CENTS) a hand pay is two people's:
// confirmed, then approved by another operator (docs/DECISIONS.md D284)
function needsSecond(p) {
  return session.handpay_approval_cents > 0 && Number(p.amount) >= session.handpay_approval_cents;
}
// large beside the others waiting: ten times the (lower) median of their amounts or more
function largeAmong(p, all) {
  const others = all.filter((o) => o !== p).map((o) => Number(o.amount)).sort((a, b) => a - b);
  return others.length > 0 && Number(p.amount) >= 10 * others[(others.length - 1) >> 1];
}
// what a two-person hand pay still needs, in people's words
function secondPersonLine(p) {
  const approver = "another operator (not the payer, the witness or whoever confirmed it)";
  if (p.status === "awaiting_approval")
    return "Paid by " + p.paid_by + (p.witness ? ", witness " + p.witness : "") +
      (p.slip ? ", slip " + p.slip : "") + (p.confirmer ? ", confirmed by " + p.confirmer : "") +
      ". Now " + approver + " approves it; until then it is owed.";
  return "From " + dollars(session.handpay_approval_cents) + " a hand pay takes two people: pay it, " +
    "confirm it here with who paid, the witness and the slip; then " + approver +
    " approves it before it counts as paid.";
}
// a round's void waiting for a second person that covers this payout: it is decided before
// the payout is paid (docs/DECISIONS.md D289)
function heldRoundVoid(p, voids = state.voids) {
  return voids.find((v) => v.table === p.table && v.round === p.round
    && (v.whole || v.spots.includes(Number(p.spot))));
}
function renderJackpots() {
  const box = document.getElementById("jackpots");
  const cards = state.payouts.map((p) => {
    const actions = [];
    const roundVoid = heldRoundVoid(p);
    if (isOperator()) {
      if (p.status === "pending" || p.status === "disputed")
        actions.push(el("button", { class: "primary", "data-action": "confirm", disabled: !!roundVoid,
          title: roundVoid ? "Approve or refuse the round's void first" : null,
          onclick: () => confirmDialog(p) }, roundVoid ? "Round void waiting" : "Confirm hand pay"));
      if (p.status === "awaiting_approval") {
        const own = p.confirmed_by === session.who || (p.paid_by_id
          ? [p.confirmer_id, p.paid_by_id, p.witness_id].includes(session.person_id)
          : [p.paid_by, p.confirmer, p.witness].some((n) => same(n, session.person)));
        actions.push(el("button", { class: "primary", "data-action": "approve", disabled: own,
          title: own ? "A second operator approves" : null, onclick: () => approveDialog(p) },
          own ? "Awaiting another operator" : "Approve"));
      }
      if (p.status === "pending" || p.status === "awaiting_approval")
        actions.push(el("button", { class: "danger", "data-action": "dispute",
          onclick: () => reasonDialog(p, "dispute") }, "Dispute"));
      const asked = p.void_request;  // a void asked from the approval threshold up
      if (asked) {
        const mine = asked.requested_by === session.who || (asked.person_id
          ? asked.person_id === session.person_id : same(asked.person, session.person));
        actions.push(el("button", { class: "danger", "data-action": "approve-void", disabled: mine,
          title: mine ? "Another operator approves the void you asked for" : null,
          onclick: () => approveVoidDialog(p) }, mine ? "Void awaits another operator" : "Approve void"));
      } else if (p.status === "disputed" || p.status === "awaiting_approval")
        actions.push(el("button", { class: "danger", "data-action": "void",
          onclick: () => reasonDialog(p, "void") }, "Void"));
    }
    actions.push(el("button", { "data-action": "slip", onclick: () => printSlipOf(p) }, "Print slip"));
    const second = needsSecond(p);
    const details = [];
    if (second)
      details.push(el("div", { class: "line second-line" }, secondPersonLine(p)));
    else if (p.status === "awaiting_approval")
      details.push(el("div", { class: "line" }, "Paid by " + p.paid_by +
        (p.witness ? ", witness " + p.witness : "") + (p.slip ? ", slip " + p.slip : "") +
        " · needs a second operator"));
    if (p.status === "disputed" && p.note)
      details.push(el("div", { class: "line" }, "Disputed: " + p.note));
    if (p.void_request)
      details.push(el("div", { class: "line" }, "Void asked by " + p.void_request.person + ": " +
        p.void_request.reason + " · needs another operator's approval"));
    if (roundVoid)
      details.push(el("div", { class: "line round-void-line" }, "A void of this round (" +
        voidCovers(roundVoid) + ") asked by " + (roundVoid.person || roundVoid.requested_by) + ": " +
        roundVoid.reason + " · not paid until another person approves the void (which cancels " +
        "this pay) or refuses it (Round voids, below)"));
    const large = second || largeAmong(p, state.payouts);
    return el("div", { class: "jackpot " + p.status + (second ? " second" : "") + (large ? " large" : ""),
      "data-payout": p.id },
      el("div", {}, badge(p.status), " ", el("span", { class: "muted" }, p.id)),
      second ? el("div", { class: "tag second" }, "Needs a second person to approve") : null,
      el("div", { class: "amount" }, dollars(p.amount)),
      el("div", {}, wonText(p) + " · table " + p.table + " · spot " + p.spot),
      el("div", { class: "line" }, (p.kind ? HAND_PAY_KIND[p.kind] + " (held for verification)"
        : "Pool " + p.pool) + " · hit " + dated(p.created) + " · waiting " + age(p.created)),
      ...details,
      el("div", { class: "actions" }, ...actions));
  });
  box.replaceChildren(...(cards.length ? cards : [el("p", { class: "empty" }, "No jackpot awaits verification.")]));
  document.getElementById("jackpot-count").textContent = cards.length ? String(cards.length) : "";
}
// ---- round voids awaiting a second person: every supervisor on shift sees them, with a
// badge like the jackpots'; the one who asked (or whose key did) cannot approve their own
function voidCovers(v) {
  return v.whole ? "the whole round" : "spot " + v.spots.join(", ");
}
function ownVoid(v) {
  return v.requested_by === session.who || (v.person_id && v.person_id === session.person_id)
    || v.approvals.some((a) => a.approved_by === session.who
      || (a.person_id && a.person_id === session.person_id));
}
function renderVoids() {
  const rows = state.voids.map((v) => {
    const ops = [];
    if (isOperator()) {
      const own = ownVoid(v);
      ops.push(el("button", { class: "danger", "data-action": "approve-round-void", disabled: own,
        title: own ? "Another person approves it" : null, onclick: () => approveRoundVoidDialog(v) },
        own ? "Awaiting another person" : "Approve void"));
      ops.push(el("button", { "data-action": "refuse-round-void", onclick: () => refuseRoundVoidDialog(v) },
        v.requested_by === session.who || (v.person_id && v.person_id === session.person_id)
          ? "Withdraw" : "Refuse"));
    }
    return el("tr", { "data-round": v.table + "/" + v.round },
      el("td", {}, "table " + v.table + " · round " + v.round),
      el("td", {}, voidCovers(v)), el("td", { class: "num" }, dollars(v.pays)),
      el("td", {}, v.person || v.requested_by), el("td", { class: "why" }, v.reason),
      el("td", {}, v.approvals.map((a) => a.approver || a.approved_by).join(", ") || "none yet"),
      el("td", {}, age(v.at), el("div", { class: "since" }, "since " + dated(v.at))),
      el("td", { class: "ops" }, el("div", { class: "stack" }, ...ops)));
  });
  // a jackpot's void asked from the approval threshold up (D286): the payout keeps its status
  // (paid, awaiting approval, disputed) until another person approves or refuses the void
  rows.push(...state.payoutVoids.map((v) => {
    const ops = [];
    if (isOperator()) {
      const own = askedByMe(v);
      ops.push(el("button", { class: "danger", "data-action": "approve-payout-void", disabled: own,
        title: own ? "Another person approves the void you asked for" : null,
        onclick: () => approvePayoutVoidDialog(v) }, own ? "Awaiting another person" : "Approve void"));
      ops.push(el("button", { "data-action": "refuse-payout-void", onclick: () => refusePayoutVoidDialog(v) },
        own ? "Withdraw" : "Refuse"));
    }
    return el("tr", { "data-payout": v.payout },
      el("td", {}, "jackpot " + v.payout + " · table " + v.table + " · spot " + v.spot),
      el("td", {}, "the jackpot (" + words(v.status).toLowerCase() + ")"), el("td", { class: "num" }, dollars(v.amount)),
      el("td", {}, v.person || v.requested_by), el("td", { class: "why" }, v.reason),
      el("td", {}, "none yet"),
      el("td", {}, age(v.at), el("div", { class: "since" }, "since " + dated(v.at))),
      el("td", { class: "ops" }, el("div", { class: "stack" }, ...ops)));
  }));
  document.querySelector("#voids tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 8, class: "empty" }, "No void awaits approval."))]));
  document.getElementById("void-count").textContent = rows.length ? String(rows.length) : "";
  const badge = document.getElementById("void-badge");
  badge.hidden = rows.length === 0;
  badge.textContent = rows.length === 1 ? "1 void to approve" : rows.length + " voids to approve";
  badge.title = "Round and jackpot voids waiting for a second person";
  document.getElementById("void-round").hidden = !isOperator();
}
function askedByMe(v) {  // by the register's id, else by the key: never by a name
  return v.requested_by === session.who || Boolean(v.person_id && v.person_id === session.person_id);
}
function payoutVoidSummary(v) {
  return "Jackpot " + v.payout + " · " + dollars(v.amount) + " · table " + v.table + " · round "
    + v.round + " · spot " + v.spot + " · " + words(v.status).toLowerCase() + " · void asked by "
    + (v.person || v.requested_by) + ": " + v.reason;
}
function approvePayoutVoidDialog(v) {
  openDialog({
    title: "Approve jackpot void", submit: "Void for good", danger: true,
    summary: payoutVoidSummary(v) + " · a void is final: nothing is owed any more",
    fields: [{ name: "reason", label: "Note", multiline: true }],
    send: async (given) => {
      await api("POST", "/v1/payouts/" + encodeURIComponent(v.payout) + "/void/approve",
        { ...given, expect: v.status });
      return "Jackpot " + v.payout + " voided.";
    },
  });
}
function refusePayoutVoidDialog(v) {
  const own = askedByMe(v);
  openDialog({
    title: own ? "Withdraw jackpot void" : "Refuse jackpot void",
    submit: own ? "Withdraw the void" : "Refuse the void",
    summary: payoutVoidSummary(v) + " · the request is dropped; the jackpot stays " + words(v.status).toLowerCase(),
    fields: [{ name: "reason", label: "Reason", hint: "(required, kept in the journal)", multiline: true }],
    check: (given) => given.reason ? {} : { reason: own ? "Say why you withdraw it." : "Say why the void is refused." },
    send: async (given) => {
      await api("POST", "/v1/payouts/" + encodeURIComponent(v.payout) + "/void/refuse", given);
      return "Void of jackpot " + v.payout + (own ? " withdrawn" : " refused") + ": it stays "
        + words(v.status).toLowerCase() + ".";
    },
  });
}
function approveRoundVoidDialog(v) {
  openDialog({
    title: "Approve round void", submit: "Void for good", danger: true,
    summary: "Table " + v.table + " · round " + v.round + " · " + voidCovers(v) + " · pays "
      + dollars(v.pays) + " taken back · asked by " + (v.person || v.requested_by) + ": " + v.reason,
    fields: [{ name: "reason", label: "Note", multiline: true }],
    send: async (given) => {
      const path = "/v1/rounds/" + encodeURIComponent(v.table) + "/" + encodeURIComponent(v.round)
        + "/void/approve";
      const done = await api("POST", path, given.reason ? given : {});
      return done.result === "voided" ? "Round " + v.round + " at table " + v.table + " voided."
        : "Approval recorded: the void awaits one more person.";
    },
  });
}
function refuseRoundVoidDialog(v) {
  openDialog({
    title: "Refuse round void", submit: "Refuse the void",
    summary: "Table " + v.table + " · round " + v.round + " · " + voidCovers(v) + " · asked by "
      + (v.person || v.requested_by) + ": " + v.reason + " · nothing moves; the round stands",
    fields: [{ name: "reason", label: "Reason", hint: "(required, kept in the journal)", multiline: true }],
    check: (given) => given.reason ? {} : { reason: "Say why the void is refused." },
    send: async (given) => {
      const path = "/v1/rounds/" + encodeURIComponent(v.table) + "/" + encodeURIComponent(v.round)
        + "/void/refuse";
      await api("POST", path, given);
      return "Void of round " + v.round + " at table " + v.table + " refused: the round stands.";
    },
  });
}
function voidRoundDialog() {
  openDialog({
    title: "Void a round", submit: "Review", danger: true,
    summary: "Takes back a settled round's handle, pays, meter contributions and jackpots as new "
      + "journal entries; from the approval threshold another person approves it.",
    fields: [
      { name: "table", label: "Table", hint: "(required)" },
      { name: "round", label: "Round", hint: "(required, as the table reported it)" },
      { name: "spots", label: "Spots", hint: "(only these spots' bets, e.g. 2, 5; empty: the whole round)" },
      { name: "reason", label: "Reason", hint: "(required, kept in the journal)", multiline: true },
    ],
    check: (v) => {
      const wrong = {};
      if (!v.table) wrong.table = "Enter the table.";
      if (!v.round) wrong.round = "Enter the round as the table reported it.";
      if (v.spots && !/^\s*\d+(\s*,\s*\d+)*\s*$/.test(v.spots))
        wrong.spots = "Give spot numbers separated by commas, or leave it empty for the whole round.";
      if (!v.reason) wrong.reason = "Say why the round is void.";
      return wrong;
    },
    review: async (v) => {
      // what the void takes back, from the round's stored result: its bets not void yet
      const found = await api("GET", "/v1/rounds/" + encodeURIComponent(v.table) + "/"
        + encodeURIComponent(v.round));
      const t = voidTotals(found, v.spots ? v.spots.split(",").map((x) => Number(x.trim())) : null);
      return [
        ["Round", "table " + v.table + " · round " + v.round],
        ["Void of", v.spots ? "spot " + v.spots : "the whole round", "amount"],
        ["Bets", t.bets + " bet" + (t.bets === 1 ? "" : "s") + " · handle " + dollars(t.handle) + " taken back"],
        ["Pays taken back", dollars(t.pays) + " (fixed " + dollars(t.fixed) + " · envy " + dollars(t.envy)
          + " · jackpots " + dollars(t.jackpots) + ")", "amount"],
        ["Reason", v.reason],
        ["Asked by", session.shown + " (you)"],
        ["Then", t.second
          ? "another person approves it before it applies (pays of the round's voids reach "
            + dollars(session.handpay_approval_cents) + ")"
          : "it applies at once: below " + (session.handpay_approval_cents > 0
            ? dollars(session.handpay_approval_cents) + ", no second person is needed" : "no approval threshold is set")],
      ];
    },
    submitReviewed: "Yes, void it",
    send: async (v) => {
      const body = { reason: v.reason };
      if (v.spots) body.spots = v.spots.split(",").map((s) => Number(s.trim()));
      const done = await api("POST", "/v1/rounds/" + encodeURIComponent(v.table) + "/"
        + encodeURIComponent(v.round) + "/void", body);
      return done.result === "awaiting_approval"
        ? "Void asked: it awaits another person's approval (pays " + dollars(done.awaiting_approval.pays) + ")."
        : done.result === "unchanged" ? "Nothing to do: that is void already."
        : "Round " + v.round + " at table " + v.table + " voided.";
    },
    explain: (e) => e.code === "not_found" || e.status === 404
      ? "No round " + e.message.replace(/^.*?round /, "") : null,
  });
}
document.getElementById("void-round").addEventListener("click", voidRoundDialog);
// what a void of `spots` (null: every spot) takes back of a round's stored result: its bets
// not void already, their handle and pays; and whether the round's voided pays with it reach
// the approval threshold (a second person then: void_round.lua, docs/RULES.md §6)
function voidTotals(found, spots) {
  const done = new Set((found.void && found.void.spots) || []);
  const mine = found.spots.filter((s) => !done.has(s.spot) && (!spots || spots.includes(s.spot)));
  const sum = (k) => mine.reduce((n, s) => n + Number(s[k] || 0), 0);
  const t = { bets: mine.filter((s) => Number(s.wager) > 0).length, handle: sum("wager"),
              fixed: sum("pay"), envy: sum("envy"), jackpots: sum("jackpot") };
  t.pays = t.fixed + t.envy + t.jackpots;
  const before = ((found.void && found.void.voids) || []).reduce((n, x) => n + Number(x.pays), 0);
  t.second = session.handpay_approval_cents > 0 && t.pays + before >= session.handpay_approval_cents;
  return t;
}

// ---- the hand-pay slip: what a casino's hand-pay form carries, from the payout's record, to
// print, sign and file with the pay (what is not recorded yet is left to fill in by hand)
// a slip carries the signed checkpoint covering the payout (GET /v1/payouts/{id}: D257)
async function printSlipOf(p) {
  let found = p;
  try { found = await api("GET", "/v1/payouts/" + encodeURIComponent(p.id)); } catch (e) { /* as listed */ }
  printSlip(found);
}
// on paper every time carries its date: a slip or a report is read on another day
function paper(ms) { return zoned(ms, true); }
function checkpointText(c, stamp) {  // stamp: how its time is shown (default dated)
  return c ? "#" + c.id + " · " + c.short + " · " + (stamp || dated)(c.ts) : "not yet covered";
}
function printSlip(p) {
  const table = state.tables.find((t) => t.table === p.table) || {};
  const blank = "";
  const rows = [
    ["Jackpot (payout)", p.id],
    ["Status", words(p.status)],
    ["Won", zoned(p.created, true) + " (" + session.time_zone + ")"],
    ["Table", p.table + (table.asset ? " · asset " + table.asset : "") + (table.location ? " · " + table.location : "")],
    ["Spot · round", p.spot + " · " + p.round],
    ["Player", p.player || blank],
    ["Outcome", wonText(p)],
    ...(p.commitment ? [["Trigger commitment", p.commitment]] : []),
    ["Pays from", p.kind ? HAND_PAY_KIND[p.kind] : "pool " + p.pool],
    ["Amount", dollars(p.amount)],
    ["Paid by", p.paid_by || blank],
    ["Witness", p.witness || blank],
    ["Hand-pay slip number", p.slip || blank],
    ["Confirmed by", p.confirmer || blank],
    ["Approved by", p.approver || blank],
    ...("checkpoint" in p ? [["Journals checkpoint", checkpointText(p.checkpoint, paper)]] : []),
  ];
  const box = document.getElementById("slip");
  box.replaceChildren(
    el("h2", {}, "Hand-pay slip — Casino War progressive"),
    el("p", { class: "sub" }, "Printed " + zoned(Date.now(), true) + " by " + session.shown),
    el("table", {}, ...rows.map(([label, value]) =>
      el("tr", label === "Amount" ? { class: "amount-line" } : {}, el("th", {}, label), el("td", {}, String(value))))),
    el("div", { class: "signatures" },
      el("div", {}, "Paid by (signature)"), el("div", {}, "Witness (signature)"),
      el("div", {}, "Supervisor (signature)"), el("div", {}, "Patron (signature)")));
  box.dataset.payout = p.id;
  document.body.classList.add("printing-slip");
  window.print();
}
window.addEventListener("afterprint", () => document.body.classList.remove("printing-slip"));

// records made before the register of people named people only by name: compared as they
// were then (jackpot/domain/people.py person_of). Everything since compares ids.
function person(name) {
  return (name || "").normalize("NFKC").toLowerCase().normalize("NFKC").replace(/[\s\p{Cf}]/gu, "");
}
function same(a, b) { return person(a) !== "" && person(a) === person(b); }

function stagedText(p) {
  const s = p.staged, changes = [];
  const was = { reset: p.reset, cap: p.cap, rate_bp: p.rate_bp, reserve_rate_bp: p.reserve_rate_bp, policy: p.policy };
  const shown = { reset: (v) => dollars(v), cap: (v) => v === null ? "none" : dollars(v),
                  rate_bp: percentBp, reserve_rate_bp: percentBp, policy: (v) => v };
  const names = { reset: "reset", cap: "cap", rate_bp: "rate", reserve_rate_bp: "to reserve", policy: "policy" };
  for (const k of Object.keys(names))
    if (s[k] !== was[k]) changes.push(names[k] + " " + shown[k](was[k]) + " → " + shown[k](s[k]));
  const when = s.effective_at === null ? "at the next suspension" : "at " + dated(s.effective_at);
  const refused = p.staged_refused ? " · Refused as it was to take effect: " + p.staged_refused : "";
  return "Staged change, " + when + ": " + (changes.join(", ") || "no difference") + " · " + s.reason + refused;
}
// a must-hit-by or mystery level: its type and the commitment to its hidden trigger
function levelNote(p) {
  if (!p.level || p.level === "hand") return null;
  const sealed = p.trigger ? " · trigger #" + p.trigger.draw + " " + p.trigger.commitment.slice(0, 12) + "…" : "";
  return el("div", { class: "level-note", title: p.trigger ? p.trigger.commitment : "" }, levelWords(p.level) + sealed);
}
function renderPools() {
  const rows = state.pools.flatMap((p) => {
    const ops = [];
    if (isOperator() && p.state === "running")
      ops.push(el("button", { "data-action": "suspend", onclick: () => linkDialog(p, "suspend") }, "Suspend"));
    if (isOperator() && p.state === "suspended")
      ops.push(el("button", { class: "primary", "data-action": "resume", onclick: () => linkDialog(p, "resume") }, "Resume"));
    const row = el("tr", { "data-pool": p.pool },
      el("td", {}, el("strong", {}, p.name || p.pool), p.name ? el("div", { class: "level-note" }, p.pool) : null,
        levelNote(p)), el("td", {}, badge(p.state)),
      el("td", { class: "num" }, dollars(p.value)),
      el("td", { class: "num" }, dollars(p.reserve)),
      el("td", { class: "num" }, dollars(p.reset)),
      el("td", { class: "num" }, p.cap === null || p.cap === undefined ? "none" : dollars(p.cap)),
      el("td", { class: "num" }, percentBp(p.rate_bp)), el("td", { class: "num" }, percentBp(p.reserve_rate_bp)),
      el("td", {}, p.policy), el("td", { class: "num" }, String(p.hits)),
      el("td", {}, el("div", { class: "actions-cell" }, ...ops)));
    if (!p.staged) return [row];
    return [row, el("tr", { class: "staged", "data-staged": p.pool },
      el("td", {}), el("td", { colspan: isOperator() ? 10 : 9, class: "wrap staged-note" }, stagedText(p)))];
  });
  document.querySelector("#pools tbody").replaceChildren(...rows);
  document.getElementById("pool-count").textContent = String(state.pools.length);
}

// a fixed-odds or envy pay held as a hand pay (JACKPOT_HANDPAY_CENTS), not a meter's jackpot
const HAND_PAY_KIND = { fixed: "Fixed pay", envy: "Envy bonus" };

// what a table was told against what the controller holds, in people's words
const FIGURE = { rounds: "rounds", side_bets: "side bets", handle: "handle", fixed: "fixed pays",
  envy: "envy pays", jackpot: "jackpot pays", voids: "voids asked" };
const MONEY = new Set(["handle", "fixed", "envy", "jackpot"]);
function countsText(table, check) {
  const shown = (name, v) => MONEY.has(name) ? dollars(v) : String(v);
  const parts = Object.entries(check.differences).map(([name, v]) =>
    FIGURE[name] + " " + shown(name, v.table) + " at the table, " + shown(name, v.controller) + " here");
  const ack = check.acknowledged;
  const after = ack ? " Acknowledged by " + ack.who + " (" + ack.reason + "); shown until the day is closed."
    : check.closed ? " The day is closed: shown until a person acknowledges the difference." : "";
  return "What table " + table + " was told on gaming day " + check.day + " is not what the controller holds: " +
    parts.join("; ") + ". Acknowledged rounds may have been lost: see the runbook (JackpotTableCountsDiffer)." + after;
}

function renderTables() {
  const rows = state.tables.map((t) => {
    const ops = [];
    if (isOperator())
      ops.push(t.enabled
        ? el("button", { class: "danger", "data-action": "disable", onclick: () => tableDialog(t, false) }, "Disable")
        : el("button", { class: "primary", "data-action": "enable", onclick: () => tableDialog(t, true) }, "Enable"));
    const row = el("tr", { "data-table": t.table },
      el("td", {}, el("strong", {}, t.table)),
      el("td", {}, badge(t.online ? "online" : "offline")),
      el("td", {}, t.last_seen ? dated(t.last_seen) + " (" + age(t.last_seen) + " ago)" : "never"),
      el("td", {}, badge(t.enabled ? "enabled" : "disabled", t.enabled ? "running" : "disabled")),
      el("td", {}, t.pools.join(", ")),
      el("td", { class: "num" }, dollars(t.min_wager) + "–" + dollars(t.max_wager)),
      el("td", { class: "num" }, String(t.rounds)),
      el("td", {}, el("div", { class: "actions-cell" }, ...ops)));
    const check = t.counts_check;
    if (!check || !check.in_sight) return [row];
    // a person acknowledges the difference (operator or auditor): it leaves once the day is closed too
    const ack = check.acknowledged ? null : el("button", { "data-action": "acknowledge-counts",
      onclick: () => countsDialog(t.table, check) }, "Acknowledge");
    return [row, el("tr", { class: "counts-differ", "data-counts": t.table },
      el("td", {}, ack), el("td", { colspan: 7, class: "wrap counts-note" }, countsText(t.table, check)))];
  });
  document.querySelector("#tables tbody").replaceChildren(...rows.flat());
  const online = state.tables.filter((t) => t.online).length;
  document.getElementById("table-count").textContent = online + " of " + state.tables.length + " online";
}

const WHAT = {
  created: "Pool created", config: "Pool changed", table_created: "Table created",
  table_updated: "Table changed", table_disabled: "Table disabled", table_enabled: "Table enabled", change_staged: "Change staged", change_cancelled: "Staged change dropped",
  change_refused: "Staged change refused",
  game_changed: "Game changed", adjustment: "Adjustment", transfer: "Balance transferred",
  suspended: "Link suspended", resumed: "Link resumed",
  payout_paid: "Jackpot paid", payout_confirmed: "Hand pay confirmed, awaiting approval",
  payout_disputed: "Jackpot disputed", payout_voided: "Jackpot voided",
  payout_void_requested: "Jackpot void asked", payout_void_withdrawn: "Jackpot void request withdrawn",
  payout_void_refused: "Jackpot void refused",
  key_created: "Key created", key_revoked: "Key revoked", key_assigned: "Key given to its person",
  person_registered: "Person registered", person_changed: "Person changed",
  person_deactivated: "Person deactivated", person_reactivated: "Person reactivated",
  table_counts_acknowledged: "Table counts acknowledged",
  void_requested: "Round void asked", void_approved: "Round void approved, awaiting another",
  void: "Round voided", void_refused: "Round void refused",
};
// which activity the filters keep: a kind of step, and text found in what the row shows
function activityKind(a) {
  if (a.type.startsWith("payout_") || a.payout) return "payout";
  if (a.type.startsWith("key_") || a.type.startsWith("person_")) return "key";
  if (a.type.startsWith("table_")) return "table";
  return a.journal === "house" ? "controller" : "pool";
}
for (const id of ["activity-kind", "activity-text"])
  document.getElementById(id).addEventListener("input", () => renderActivity());
function renderActivity() {
  const kind = document.getElementById("activity-kind").value;
  const text = person(document.getElementById("activity-text").value);
  const rows = state.activity.filter((a) => !kind || activityKind(a) === kind).map((a) => {
    const where = a.type.startsWith("key_")
      ? "key " + a.key + (a.label ? " · " + a.label : "") + (a.role ? " (" + a.role + ")" : "")
        + (a.issued_to ? " · issued to " + a.issued_to : "")
      : a.type.startsWith("person_") ? (a.name ? a.name + " (" + a.staff_id + ")" : a.staff_id)
      : a.journal === "house" ? (a.table ? "table " + a.table : "controller") : "pool " + a.pool;
    let amount = "";
    if (a.amount_units !== undefined) amount = units(a.amount_units);
    else if (a.amount !== undefined) amount = dollars(a.amount);
    else if (a.pays !== undefined) amount = dollars(a.pays);  // a void asked: its pays
    else if (a.type === "void" && a.journal === "house")  // a round's void: the pays taken back
      amount = dollars(Number(a.fixed) + Number(a.envy) + Number(a.jackpot));
    // a round void is the asker's, approved by another; each step names the round
    const asked = a.type === "void" && a.journal === "house" && a.person;
    const by = a.paid_by ? a.paid_by + (a.approver ? ", approved by " + a.approver : "")
      : asked ? "asked by " + a.person + (a.approvers ? ", approved by " + a.approvers.join(", then ")
        : a.approver ? ", approved by " + a.approver : "")
      : a.person || a.who;
    const round = a.round && a.journal === "house" && a.type.startsWith("void")
      ? " · round " + a.round + (a.whole === "0" && a.spots ? " · spot " + a.spots : "") : "";
    // a refusal by the one who asked is their withdrawal (`withdrawn` 1), said as such
    const what = a.withdrawn === "1" && a.type.endsWith("void_refused")
      ? (a.type === "void_refused" ? "Round void" : "Jackpot void") + " withdrawn by the one who asked"
      : WHAT[a.type] || words(a.type);
    return el("tr", {},
      el("td", {}, dated(a.ts)), el("td", {}, what),
      el("td", {}, where + round + (a.payout ? " · " + a.payout : "") + (a.to ? " → " + a.to : "")),
      el("td", { class: "num" }, amount), el("td", {}, by || ""),
      el("td", {}, a.reason || a.note || ""));
  });
  const shown = text ? rows.filter((r) => person(r.textContent).includes(text)) : rows;
  const none = kind || text ? "Nothing recent matches." : "Nothing yet.";
  document.querySelector("#activity tbody").replaceChildren(...(shown.length ? shown
    : [el("tr", {}, el("td", { colspan: 6, class: "empty" }, none))]));
}

// ---- actions: one dialog, fields named as the API names them ----
let pending = null;  // {path, method, body(values) -> object, done(result)}
// check(values) -> {field: message} for what is missing or wrong before anything is sent;
// review(values) -> [[label, text], ...]: a last step showing what will be recorded, sent
// only once it is confirmed; explain(error) -> the refusal in people's words (or null)
function openDialog({ title, summary, fields, submit, danger, send, check, review, explain,
                      submitReviewed }) {
  document.getElementById("act-title").textContent = title;
  document.getElementById("act-summary").textContent = summary || "";
  document.getElementById("act-review").hidden = true;
  document.getElementById("act-fields").hidden = false;
  document.getElementById("act-cancel").textContent = "Cancel";
  const box = document.getElementById("act-fields");
  box.replaceChildren(...fields.map((f) => f.person ? personField(f) : el("div", {},
    el("label", { for: "f-" + f.name }, f.label, f.hint ? el("span", { class: "hint" }, " " + f.hint) : null),
    el(f.multiline ? "textarea" : "input", { id: "f-" + f.name, name: f.name, value: f.value || null,
      autocomplete: "off", rows: f.multiline ? 2 : null }),
    el("div", { class: "field-error", id: "e-" + f.name }))));
  for (const f of fields) if (f.multiline && f.value) document.getElementById("f-" + f.name).value = f.value;
  const button = document.getElementById("act-submit");
  button.textContent = submit;
  button.className = danger ? "danger" : "primary";
  button.disabled = false;
  document.getElementById("act-error").textContent = "";
  pending = { fields, send, check, review, explain, submit, reviewing: false,
              submitReviewed: submitReviewed || "Yes, record the hand pay" };
  document.getElementById("act").showModal();
  const first = box.querySelector("input, textarea");
  if (first) first.focus();
}
// A person is chosen from the register, never typed: a search box (a name or a badge
// number) lists the active people who match; choosing one keeps their id in a hidden input,
// which is what the form sends (docs/RULES.md §5 People). `f.value` is {id, shown} chosen
// beforehand.
const chosen = {};  // field name -> {id, shown} of the person chosen in it
function personField(f) {
  const hidden = el("input", { type: "hidden", id: "f-" + f.name, name: f.name,
    value: f.value ? f.value.id : null });
  const list = el("ul", { class: "people", id: "l-" + f.name, role: "listbox",
    "aria-label": f.label + ": people who match" });
  if (f.value) chosen[f.name] = f.value; else delete chosen[f.name];
  let asked = 0, timer = null;
  const choose = (who) => {
    hidden.value = who.id;
    chosen[f.name] = { id: who.id, shown: who.shown };
    search.value = who.shown;
    list.replaceChildren();
    search.removeAttribute("aria-invalid");
    document.getElementById("e-" + f.name).textContent = "";
  };
  const look = async () => {
    const text = search.value.trim(), mine = ++asked;
    if (!text) { list.replaceChildren(); return; }
    let found = [];
    try {
      found = (await api("GET", "/v1/people?limit=8&q=" + encodeURIComponent(text))).people;
    } catch (e) { found = []; }
    if (mine !== asked) return;  // a newer search has been sent since
    list.replaceChildren(...(found.length ? found.map((who) => el("li", {},
      el("button", { type: "button", class: "person", "data-person": who.id, role: "option",
        onclick: () => choose(who) }, who.name + " · " + who.id,
        who.position ? el("span", { class: "hint" }, " " + who.position) : null)))
      : [el("li", { class: "empty" }, "Nobody in the register matches “" + text + "”.")]));
  };
  const search = el("input", { id: "s-" + f.name, type: "search", autocomplete: "off",
    placeholder: "Name or badge number", value: f.value ? f.value.shown : null,
    "aria-controls": "l-" + f.name,
    oninput: () => {
      hidden.value = "";  // typed, not chosen: nobody until a person is picked from the list
      delete chosen[f.name];
      clearTimeout(timer);
      timer = setTimeout(look, 200);
    },
    onkeydown: (event) => {  // Enter takes the only match, or the one whose number was typed
      if (event.key !== "Enter" || hidden.value) return;
      const options = [...list.querySelectorAll("button.person")];
      const typed = search.value.trim().toUpperCase();
      const pick = options.length === 1 ? options[0]
        : options.find((b) => b.dataset.person === typed);
      if (pick) { event.preventDefault(); pick.click(); }
    } });
  return el("div", { class: "person-field" },
    el("label", { for: "s-" + f.name }, f.label, f.hint ? el("span", { class: "hint" }, " " + f.hint) : null),
    search, hidden, list, el("div", { class: "field-error", id: "e-" + f.name }));
}
function shownOf(field) { return chosen[field] ? chosen[field].shown : ""; }

function values() {
  const out = {};
  for (const f of pending.fields) {
    const v = document.getElementById("f-" + f.name).value.trim();
    if (v) out[f.name] = v;
  }
  return out;
}
function editing() {  // back from the last step to the form
  pending.reviewing = false;
  document.getElementById("act-review").hidden = true;
  document.getElementById("act-fields").hidden = false;
  document.getElementById("act-submit").textContent = pending.submit;
  document.getElementById("act-cancel").textContent = "Cancel";
}
function fieldError(field, message) {
  const input = document.getElementById("s-" + field) || document.getElementById("f-" + field);
  if (!input) return false;
  input.setAttribute("aria-invalid", "true");
  document.getElementById("e-" + field).textContent = message;
  return true;
}
document.getElementById("act-cancel").addEventListener("click", () => {
  if (pending && pending.reviewing) { editing(); return; }
  document.getElementById("act").close();
});
document.getElementById("act-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!pending) return;
  const button = document.getElementById("act-submit");
  if (button.disabled) return;  // a double tap sends once
  button.disabled = true;
  for (const e of document.querySelectorAll(".field-error")) e.textContent = "";
  for (const e of document.querySelectorAll("#act-fields [aria-invalid]")) e.removeAttribute("aria-invalid");
  document.getElementById("act-error").textContent = "";
  const given = values();
  if (!pending.reviewing) {
    const wrong = pending.check ? pending.check(given) : null;
    if (wrong && Object.keys(wrong).length) {
      for (const [field, message] of Object.entries(wrong)) fieldError(field, message);
      const first = Object.keys(wrong)[0];
      (document.getElementById("s-" + first) || document.getElementById("f-" + first)).focus();
      button.disabled = false;
      return;
    }
    if (pending.review) {  // the last step: what will be recorded, before it is
      let shown;
      try {
        shown = await pending.review(given);  // may read what it shows (a round's result)
      } catch (e) {
        button.disabled = false;
        const said = (pending.explain && e.status && pending.explain(e)) || e.message;
        if (!(e.field && fieldError(e.field, said)))
          document.getElementById("act-error").textContent = said;
        return;
      }
      pending.reviewing = true;
      const box = document.getElementById("act-review");
      box.replaceChildren(el("p", {}, "Check before it is recorded:"),
        el("dl", {}, ...shown.flatMap(([label, text, cls]) =>
          [el("dt", {}, label), el("dd", { class: cls || null }, text)])));
      box.hidden = false;
      document.getElementById("act-fields").hidden = true;
      button.textContent = pending.submitReviewed;
      document.getElementById("act-cancel").textContent = "Back";
      button.disabled = false;
      button.focus();
      return;
    }
  }
  try {
    const message = await pending.send(given);
    document.getElementById("act").close();
    showToast(message);
    await refresh();
  } catch (e) {
    button.disabled = false;
    if (pending.reviewing) editing();  // back to the form, where the refusal is shown
    // in people's words, once: under its field when the form has it, else above the buttons;
    // a refusal not explained names the field by its label, not by the API's name
    const field = pending.fields.find((f) => f.name === e.field);
    const said = (pending.explain && e.status && pending.explain(e))
      || (field && e.message ? field.label + " " + e.message : e.message);
    const atField = e.status && e.field && fieldError(e.field, said);
    if (atField) document.getElementById("f-" + e.field).focus();
    document.getElementById("act-error").textContent =
      e.code === "payout_changed" ? "Someone else acted on this jackpot meanwhile: " + e.message
      : atField ? ""
      : e.status ? said : "The controller did not answer; nothing was sent twice. Try again.";
    if (e.code === "payout_changed" || e.code === "payout_state") {
      button.disabled = true;
      await refresh();
    }
  }
});
function payoutSummary(p) {
  return dollars(p.amount) + " · " + wonText(p) + " · table " + p.table + " · spot " + p.spot + " · " + p.id;
}
function confirmDialog(p) {
  const needsSecond = session.handpay_approval_cents > 0 && p.amount >= session.handpay_approval_cents;
  openDialog({
    title: "Confirm hand pay", submit: "Confirm paid",
    summary: payoutSummary(p) + (needsSecond ? " · a second operator approves it afterwards" : ""),
    fields: [
      { name: "paid_by", label: "Paid by", person: true,
        value: session.person_id ? { id: session.person_id, shown: session.shown } : null },
      { name: "witness", label: "Witness", person: true, hint: "(another person, required)" },
      { name: "slip", label: "Hand-pay slip number", hint: "(required)" },
      { name: "reason", label: "Note", multiline: true },
    ],
    check: (v) => {
      const wrong = {};
      if (!v.paid_by) wrong.paid_by = "Choose who paid the jackpot from the register: type a name or badge number, then pick the person.";
      if (!v.witness) wrong.witness = "Choose the witness from the register: type a name or badge number, then pick the person.";
      else if (v.witness === (v.paid_by || session.person_id))
        wrong.witness = "The witness must be someone other than the person who paid.";
      else if (v.witness === session.person_id)
        wrong.witness = "The witness must be someone other than you, the operator confirming.";
      if (!v.slip) wrong.slip = "Enter the number printed on the hand-pay slip.";
      return wrong;
    },
    review: (v) => [
      ["Amount", dollars(p.amount), "amount"],
      ["Where", "table " + p.table + ", spot " + p.spot],
      ["Jackpot", wonText(p) + " · " + p.id],
      ["Paid by", shownOf("paid_by")],
      ["Witness", shownOf("witness")],
      ["Slip", v.slip],
      ["Confirmed by", session.shown + " (you)"],
    ].concat(needsSecond ? [["Then", "a second operator approves it before it counts as paid"]] : []),
    explain: (e) => ({
      "witness:same_person": "The witness must be someone other than the person who paid and the operator confirming.",
      "witness:missing": "Choose the witness from the register.",
      "witness:unknown_person": "Nobody in the register has that number: choose the witness from the list.",
      "paid_by:unknown_person": "Nobody in the register has that number: choose who paid from the list.",
      "witness:person_inactive": "The witness is no longer active in the register: choose another person.",
      "paid_by:person_inactive": "That person is no longer active in the register: choose another person.",
      "slip:missing": "Enter the number printed on the hand-pay slip.",
    })[e.field + ":" + e.code] || null,
    send: async (v) => {
      const done = await api("POST", "/v1/payouts/" + encodeURIComponent(p.id) + "/confirm",
                             { ...v, expect: p.status });
      return done.status === "awaiting_approval"
        ? "Hand pay recorded: " + dollars(p.amount) + " now awaits a second operator's approval."
        : "Jackpot " + p.id + " confirmed paid: " + dollars(p.amount) + ".";
    },
  });
}
function approveDialog(p) {
  openDialog({
    title: "Approve hand pay", submit: "Approve",
    summary: payoutSummary(p) + " · paid by " + p.paid_by + (p.witness ? ", witness " + p.witness : ""),
    fields: [{ name: "reason", label: "Note", multiline: true }],
    send: async (v) => {
      await api("POST", "/v1/payouts/" + encodeURIComponent(p.id) + "/approve", { ...v, expect: p.status });
      return "Jackpot " + p.id + " approved and paid.";
    },
  });
}
function approveVoidDialog(p) {
  openDialog({
    title: "Approve void", submit: "Void for good", danger: true,
    summary: payoutSummary(p) + " · void asked by " + p.void_request.person + ": " +
      p.void_request.reason + " · a void is final: nothing is owed any more",
    fields: [{ name: "reason", label: "Note", multiline: true }],
    send: async (v) => {
      await api("POST", "/v1/payouts/" + encodeURIComponent(p.id) + "/void/approve", { ...v, expect: p.status });
      return "Jackpot " + p.id + " voided.";
    },
  });
}
function reasonDialog(p, step) {
  const title = step === "dispute" ? "Dispute jackpot" : "Void jackpot";
  openDialog({
    title, submit: step === "dispute" ? "Dispute" : "Void for good", danger: true,
    summary: payoutSummary(p) + (step === "void" ? " · a void is final: nothing is owed any more" : ""),
    fields: [{ name: "reason", label: "Reason", hint: "(required, kept in the journal)", multiline: true }],
    send: async (v) => {
      const done = await api("POST", "/v1/payouts/" + encodeURIComponent(p.id) + "/" + step, { ...v, expect: p.status });
      if (step === "void" && done.status !== "void")
        return "Void of jackpot " + p.id + " asked: it awaits another operator's approval.";
      return "Jackpot " + p.id + (step === "dispute" ? " disputed." : " voided.");
    },
  });
}
function linkDialog(pool, step) {
  const suspend = step === "suspend";
  openDialog({
    title: (suspend ? "Suspend " : "Resume ") + pool.pool,
    summary: suspend ? "Every linked table closes its progressive side bet until the pool is resumed."
                     : "Every linked table opens its progressive side bet again.",
    submit: suspend ? "Suspend the link" : "Resume the link", danger: suspend,
    fields: [{ name: "reason", label: "Reason", hint: suspend ? "(required)" : "(optional)", multiline: true }],
    send: async (v) => {
      await api("POST", "/v1/pools/" + encodeURIComponent(pool.pool) + "/" + step, v);
      return "Pool " + pool.pool + (suspend ? " suspended." : " running again.");
    },
  });
}
function tableDialog(t, enabled) {
  openDialog({
    title: (enabled ? "Enable table " : "Disable table ") + t.table,
    summary: enabled ? "The table may report rounds again."
                     : "The controller refuses the table's rounds until it is enabled again.",
    submit: enabled ? "Enable" : "Disable", danger: !enabled,
    fields: [{ name: "reason", label: "Reason", hint: "(required, kept in the journal)", multiline: true }],
    // switching play is journaled under its own name, with why (table_disabled, table_enabled)
    check: (v) => v.reason ? null
      : { reason: "Say why the table is " + (enabled ? "enabled" : "disabled") + ": it is kept in the journal." },
    send: async (v) => {
      await api("PUT", "/v1/tables/" + encodeURIComponent(t.table), { enabled, reason: v.reason });
      return "Table " + t.table + (enabled ? " enabled." : " disabled.");
    },
  });
}
function countsDialog(table, check) {
  openDialog({
    title: "Acknowledge table " + table + "'s counts of gaming day " + check.day,
    summary: countsText(table, check) + " Acknowledging corrects nothing: it says why, in the journal, " +
      "and the difference leaves the alert once the day is closed too.",
    submit: "Acknowledge",
    fields: [{ name: "reason", label: "Explanation", hint: "(required, kept in the journal)", multiline: true }],
    check: (v) => v.reason ? null : { reason: "Say what explains the difference: it is kept in the journal." },
    send: async (v) => {
      await api("POST", "/v1/tables/" + encodeURIComponent(table) + "/counts/acknowledge",
        { day: check.day, reason: v.reason, checked_at: check.checked_at });
      return "Table " + table + "'s counts of " + check.day + " acknowledged.";
    },
  });
}
let toastTimer = null;
function showToast(text) {
  const t = document.getElementById("toast");
  t.textContent = text;
  t.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.remove("show"), 5000);
}

// ---- the casino's wall clock (wallParts: pages.js) ----
function wallValue(ms) {
  const p = wallParts(ms);
  return p.year + "-" + p.month + "-" + p.day + "T" + p.hour + ":" + p.minute;
}
function wallInstant(value) {  // "YYYY-MM-DDTHH:MM" on the casino's clock, as an instant (ms)
  const [day, time] = value.split("T");
  const [y, mo, d] = day.split("-").map(Number), [h, mi] = time.split(":").map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  let guess = wall;
  for (let i = 0; i < 3; i++) {  // the zone's offset at the guess, until it holds
    const p = wallParts(guess);
    const shown = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
    guess = wall - (shown - guess);
  }
  return guess;
}

// ---- the shift: what was paid, confirmed, disputed and voided in a span, and its report ----
const STATUS_WORDS = { pending: "Pending", awaiting_approval: "Awaiting approval", paid: "Paid",
                       disputed: "Disputed", void: "Voided" };
const SHIFT_STATUSES = ["paid", "awaiting_approval", "disputed", "void"];
let shift = null;  // {from, to, payouts, totals, more}
function lastChange(p) {
  return Math.max(...["created", "confirmed_at", "approved_at", "paid_at", "disputed_at",
    "voided_at"].map((k) => Number(p[k] || 0)));
}
function totalsLine(totals, order) {
  const parts = order.filter((s) => totals[s]).map((s) => el("span", {},
    el("b", {}, STATUS_WORDS[s] + " "), totals[s].payouts + " · " + dollars(totals[s].amount)));
  return parts.length ? parts : [el("span", { class: "muted" }, "None.")];
}
function peopleText(p) {
  return [p.paid_by, p.witness ? "witness " + p.witness : "", p.slip ? "slip " + p.slip : ""]
    .filter(Boolean).join(" · ");
}
function noteText(p) {  // who held it back or voided it, and why; or the void asked of it
  if (p.void_request && p.status !== "void")
    return "Void asked by " + (p.void_request.person || p.void_request.requested_by) + ": "
      + p.void_request.reason;
  // the history names the person; a live payout has the key that took the step
  const by = p.status === "void" ? "Voided by " + (p.voider || p.voided_by)
    : p.status === "disputed" ? "Disputed by " + (p.disputer || p.disputed_by) : "";
  return [by, p.note || ""].filter(Boolean).join(": ");
}
function whereText(p) {
  return "table " + p.table + " · spot " + p.spot + " · " + (p.kind ? HAND_PAY_KIND[p.kind] : "pool " + p.pool);
}
async function loadShift() {
  const error = document.getElementById("shift-error");
  error.textContent = "";
  const fromValue = document.getElementById("shift-from").value;
  const toValue = document.getElementById("shift-to").value;
  if (!fromValue) { error.textContent = "Enter when the shift began."; return; }
  const from = wallInstant(fromValue), to = toValue ? wallInstant(toValue) : null;
  if (to !== null && to <= from) { error.textContent = "The shift must end after it begins."; return; }
  const query = new URLSearchParams({ changed_from: new Date(from).toISOString(),
    status: SHIFT_STATUSES.join(","), limit: "1000" });
  if (to !== null) query.set("changed_to", new Date(to).toISOString());
  try {
    const found = await api("GET", "/v1/payouts/history?" + query);
    const end = to === null ? Date.now() : to;
    paidInShift(found, await api("GET", "/v1/payouts/history?" + new URLSearchParams(
      { changed_from: new Date(from).toISOString(), status: "void", limit: "1000" })), from, end);
    found.payouts.sort((a, b) => lastChange(a) - lastChange(b));
    // the rounds voided in the span, whether or not a jackpot went with them
    const applied = await api("GET", "/v1/voids/applied?" + new URLSearchParams(
      { from: new Date(from).toISOString(), to: new Date(end).toISOString() }));
    shift = { from, to: end, open: to === null, ...found, roundVoids: applied.voids,
              waiting: await waitingAt(end, to === null) };
    renderShift();
  } catch (e) {
    error.textContent = "The shift could not be read: " + e.message;
  }
}
// cash paid in the shift counts as paid even when the jackpot was voided later (in the shift or
// after it): the patron had the money. The history counts a payout by its last step, so the
// voided ones paid in the span are added to Paid (D287); each is marked "paid, then voided"
function paidInShift(found, voided, from, end) {
  const paid = voided.payouts.filter((p) => p.paid_at && Number(p.paid_at) >= from
    && Number(p.paid_at) < end);
  const listed = new Map(found.payouts.map((p) => [p.id, p]));
  for (const p of paid) {
    const row = listed.get(p.id) || p;
    row.paid_then_voided = true;
    // voided only after the shift: in the shift it was paid, and that is its last step here
    if (!listed.has(p.id)) { row.voided_after = true; found.payouts.push(row); }
  }
  const before = found.totals.paid || { payouts: 0, amount: 0 };
  found.totals = { ...found.totals, paid: { payouts: before.payouts + paid.length,
    amount: before.amount + paid.reduce((n, p) => n + Number(p.amount), 0) } };
  found.paidThenVoided = paid.length;
}
function shiftStatus(p) {  // a payout's status as the shift saw it
  if (p.voided_after) return "Paid, then voided after the shift";
  return p.paid_then_voided ? "Paid, then voided" : STATUS_WORDS[p.status];
}
function shiftStep(p) {  // its last step in the shift
  return p.voided_after ? Number(p.paid_at) : lastChange(p);
}
function paidNote(shown) {
  return shown.paidThenVoided ? "Paid counts " + shown.paidThenVoided + " jackpot"
    + (shown.paidThenVoided === 1 ? "" : "s") + " paid, then voided (also under Voided when voided in the shift)." : "";
}
// ---- the handover: what is still waiting at a shift's end. Ending now, the live lists; ended
// before, the jackpots won by then that are still waiting, or were paid, voided or held back
// only after it, and the round voids asked by then that still wait
const WAITING = ["pending", "awaiting_approval", "disputed"];
const WAITING_FOR = { pending: "hand pay", awaiting_approval: "second operator's approval",
  disputed: "review (disputed)" };
function waitingNow(end) {
  return { end, payouts: state.payouts.filter((p) => WAITING.includes(p.status)),
           later: new Set(), voids: state.voids.filter((v) => Number(v.at) <= end),
           payoutVoids: state.payoutVoids.filter((v) => Number(v.at) <= end) };
}
// a void asked of a payout by the end of the shift, still waiting for a second person (D286)
function voidAsked(p, end) {
  const asked = p.void_request;
  return asked && Number(asked.at) <= end ? asked : null;
}
async function waitingAt(end, now) {
  if (now) return waitingNow(end);
  const still = await api("GET", "/v1/payouts/history?" + new URLSearchParams(
    { status: WAITING.join(","), limit: "1000" }));
  const after = await api("GET", "/v1/payouts/history?" + new URLSearchParams(
    { changed_from: new Date(end + 1).toISOString(), limit: "1000" }));
  const payouts = still.payouts.filter((p) => Number(p.created) <= end);
  // settled only after the end: every step of theirs came after it
  const since = after.payouts.filter((p) => Number(p.created) <= end && !WAITING.includes(p.status)
    && [p.confirmed_at, p.approved_at, p.paid_at, p.disputed_at, p.voided_at]
      .every((t) => !t || Number(t) > end));
  const voids = state.voids.filter((v) => Number(v.at) <= end);
  const payoutVoids = state.payoutVoids.filter((v) => Number(v.at) <= end);
  return { end, payouts: [...payouts, ...since].sort((a, b) => Number(a.created) - Number(b.created)),
           later: new Set(since.map((p) => p.id)), voids, payoutVoids };
}
function handoverRows(w, cell, stamp) {  // stamp: how a time is shown (screen or paper)
  const owed = new Set(w.payouts.map((p) => p.id));
  return [
    ...w.payouts.map((p) => {
      const asked = w.later.has(p.id) ? null : voidAsked(p, w.end);
      if (asked)  // its void waits too: name it and its reason, not an older dispute's note
        return [stamp(Number(p.created)), "Jackpot " + p.id, whereText(p), dollars(p.amount),
          "second person's approval of its void (asked by " + (asked.person || asked.requested_by)
            + "; it is " + words(p.status).toLowerCase() + " until then)",
          "Void asked: " + asked.reason];
      // a round void waiting over it is decided first (D289): that is what it waits for
      const held = w.later.has(p.id) ? null : heldRoundVoid(p, w.voids);
      if (held)
        return [stamp(Number(p.created)), "Jackpot " + p.id, whereText(p), dollars(p.amount),
          "a second person's decision on its round's void (asked by " + (held.person
            || held.requested_by) + "), then " + WAITING_FOR[p.status], "Round void asked: " + held.reason];
      return [stamp(Number(p.created)), "Jackpot " + p.id, whereText(p),
        dollars(p.amount), w.later.has(p.id) ? WAITING_FOR.pending + " (" + words(p.status) + " after the shift)"
          : WAITING_FOR[p.status], noteText(p)];
    }),
    ...w.payoutVoids.filter((v) => !owed.has(v.payout)).map((v) => [stamp(Number(v.at)),
      "Jackpot void · " + v.payout, "table " + v.table + " · spot " + v.spot + " · round " + v.round,
      dollars(v.amount), "second person's approval (asked by " + (v.person || v.requested_by)
        + "; the jackpot is " + words(v.status).toLowerCase() + " until then)", v.reason]),
    ...w.voids.map((v) => [stamp(Number(v.at)), "Round void · " + voidCovers(v),
      "table " + v.table + " · round " + v.round, dollars(v.pays),
      "second person's approval (asked by " + (v.person || v.requested_by) + ")", v.reason]),
  ].map((cells) => cell(cells));
}
function handoverTotals(w) {
  const amount = w.payouts.reduce((n, p) => n + Number(p.amount), 0);
  const jackpotVoids = w.payoutVoids.length;
  return w.payouts.length + " jackpot" + (w.payouts.length === 1 ? "" : "s") + " · "
    + dollars(amount) + " still owed; " + w.voids.length + " round void"
    + (w.voids.length === 1 ? "" : "s") + " awaiting approval"
    + (jackpotVoids ? "; " + jackpotVoids + " jackpot void" + (jackpotVoids === 1 ? "" : "s")
      + " awaiting approval" : "");
}
// a round void applied in the shift, as the day's voids section shows it
function appliedCells(v, stamp) {
  const pays = Number(v.fixed_pays_cents) + Number(v.envy_pays_cents) + Number(v.jackpot_pays_cents);
  return [stamp(Date.parse(v.time)), "Round void · " + (v.whole ? "the whole round" : "spot " + v.spots)
    + (v.jackpots ? " · " + v.jackpots + " jackpot" + (v.jackpots === 1 ? "" : "s") + " cancelled" : ""),
    "table " + v.table + " · round " + v.round, dollars(pays),
    v.asked_by + (v.approved_by ? " · approved by " + v.approved_by : ""), v.reason];
}
function appliedTotals(voids) {
  const pays = voids.reduce((n, v) => n + Number(v.fixed_pays_cents) + Number(v.envy_pays_cents)
    + Number(v.jackpot_pays_cents), 0);
  return voids.length + " round void" + (voids.length === 1 ? "" : "s") + " · " + dollars(pays)
    + " of pays taken back";
}
function renderShift() {
  const note = paidNote(shift);
  document.getElementById("shift-totals").replaceChildren(...totalsLine(shift.totals, SHIFT_STATUSES),
    ...(note ? [el("span", { class: "muted", id: "shift-paid-note" }, note)] : []));
  const rows = shift.payouts.map((p) => el("tr", { "data-id": p.id, onclick: () => openRecord(p.id) },
    el("td", {}, dated(shiftStep(p))), el("td", {}, p.id), el("td", {}, whereText(p)),
    el("td", { class: "num" }, dollars(p.amount)), el("td", {}, p.voided_after ? badge("paid") : badge(p.status),
      p.paid_then_voided ? el("div", { class: "since" }, shiftStatus(p).toLowerCase()) : null),
    el("td", {}, peopleText(p)), el("td", {}, noteText(p))));
  document.querySelector("#shift tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, "Nothing was paid, disputed or voided in this span."))]));
  document.getElementById("shift-count").textContent =
    dated(shift.from) + " – " + (shift.open ? "now" : dated(shift.to));
  document.getElementById("shift-voids-count").textContent = appliedTotals(shift.roundVoids);
  const applied = shift.roundVoids.map((v) => el("tr", {},
    ...appliedCells(v, dated).map((c, i) => el("td", i === 3 ? { class: "num" } : {}, c))));
  document.querySelector("#shift-voids tbody").replaceChildren(...(applied.length ? applied
    : [el("tr", {}, el("td", { colspan: 6, class: "empty" }, "No round was voided in this span."))]));
  const w = shift.waiting;
  document.getElementById("handover-count").textContent = handoverTotals(w);
  const waiting = handoverRows(w, (cells) => el("tr", {},
    ...cells.map((c, i) => el("td", i === 3 ? { class: "num" } : {}, c))), dated);
  document.querySelector("#handover tbody").replaceChildren(...(waiting.length ? waiting
    : [el("tr", {}, el("td", { colspan: 6, class: "empty" }, "Nothing was left waiting."))]));
}
function printShift() {
  if (!shift) return;
  const span = zoned(shift.from, true) + " to " + zoned(shift.to, true) + " (" + session.time_zone + ")";
  const box = document.getElementById("shift-report");
  box.replaceChildren(
    el("h2", {}, "Shift report — Casino War progressive"),
    el("p", {}, span),
    el("p", {}, "Printed " + zoned(Date.now(), true) + " by " + session.shown),
    el("table", {},
      el("tr", {}, el("th", {}, "Status"), el("th", { class: "num" }, "Jackpots"), el("th", { class: "num" }, "Amount")),
      ...SHIFT_STATUSES.map((s) => el("tr", {}, el("td", {}, STATUS_WORDS[s]),
        el("td", { class: "num" }, String((shift.totals[s] || { payouts: 0 }).payouts)),
        el("td", { class: "num" }, dollars((shift.totals[s] || { amount: 0 }).amount))))),
    ...(paidNote(shift) ? [el("p", {}, paidNote(shift))] : []),
    el("table", {},
      el("tr", {}, ...["Last step", "Payout", "Where", "Amount", "Status", "Paid by · witness · slip",
        "Reason or note"].map((h) => el("th", h === "Amount" ? { class: "num" } : {}, h))),
      ...shift.payouts.map((p) => el("tr", {}, el("td", {}, zoned(shiftStep(p), true)),
        el("td", {}, p.id), el("td", {}, whereText(p)), el("td", { class: "num" }, dollars(p.amount)),
        el("td", {}, shiftStatus(p)), el("td", {}, peopleText(p)), el("td", {}, noteText(p))))),
    ...(shift.next ? [el("p", {}, "More than 1,000 jackpots: this report lists the newest 1,000.")] : []),
    el("h3", {}, "Round voids applied in the shift"),
    el("p", {}, appliedTotals(shift.roundVoids)),
    ...(shift.roundVoids.length ? [el("table", {},
      el("tr", {}, ...["When", "What", "Where", "Pays taken back", "Asked by · approved by", "Reason"]
        .map((h) => el("th", h === "Pays taken back" ? { class: "num" } : {}, h))),
      ...shift.roundVoids.map((v) => el("tr", {},
        ...appliedCells(v, paper).map((c, i) => el("td", i === 3 ? { class: "num" } : {}, c)))))] : []),
    el("h3", {}, "Handed over: still waiting at the end of the shift"),
    el("p", {}, handoverTotals(shift.waiting)),
    el("table", {},
      el("tr", {}, ...["Since", "What", "Where", "Amount", "Waiting for", "Reason or note"]
        .map((h) => el("th", h === "Amount" ? { class: "num" } : {}, h))),
      ...handoverRows(shift.waiting, (cells) => el("tr", {},
        ...cells.map((c, i) => el("td", i === 3 ? { class: "num" } : {}, c))), paper)),
    el("div", { class: "signatures" },
      el("div", {}, "Shift supervisor (signature)"), el("div", {}, "Received by (signature)")));
  document.body.classList.add("printing-shift");
  window.print();
}
window.addEventListener("afterprint", () => document.body.classList.remove("printing-shift"));
document.getElementById("shift-form").addEventListener("submit", (event) => {
  event.preventDefault();
  loadShift();
});
document.getElementById("shift-print").addEventListener("click", printShift);
function startShift() {  // the last eight hours, until the supervisor says otherwise
  if (!document.getElementById("shift-from").value)
    document.getElementById("shift-from").value = wallValue(Date.now() - 8 * 3600 * 1000);
  loadShift();
}

// ---- the payouts' history: a search over every payout ever made, and each one's record ----
let historyPage = { query: null, payouts: [], next: null, totals: {} };
function historyQuery() {
  const query = new URLSearchParams();
  for (const input of document.querySelectorAll("#history-form [name]"))
    if (input.value.trim()) query.set(input.name, input.value.trim());
  query.set("limit", "100");
  return query;
}
async function searchHistory(more) {
  const error = document.getElementById("history-error");
  error.textContent = "";
  for (const e of document.querySelectorAll("#history-form [aria-invalid]")) e.removeAttribute("aria-invalid");
  const query = more ? new URLSearchParams(historyPage.query) : historyQuery();
  if (more) query.set("before", historyPage.next);
  try {
    const found = await api("GET", "/v1/payouts/history?" + query);
    historyPage = { query: more ? historyPage.query : query.toString(),
                payouts: more ? historyPage.payouts.concat(found.payouts) : found.payouts,
                next: found.next, totals: more ? historyPage.totals : found.totals };
    renderHistory();
  } catch (e) {
    const input = e.field && document.querySelector("#history-form [name='" + e.field + "']");
    if (input) input.setAttribute("aria-invalid", "true");
    const label = input ? document.querySelector("label[for='" + input.id + "']").firstChild.textContent.trim() : "";
    error.textContent = label ? label + ": " + e.message : "The history could not be read: " + e.message;
  }
}
function renderHistory() {
  const all = Object.values(historyPage.totals).reduce((n, t) => n + t.payouts, 0);
  document.getElementById("history-count").textContent =
    all === 1 ? "1 payout" : all.toLocaleString("en-US") + " payouts";
  document.getElementById("history-totals").replaceChildren(
    ...totalsLine(historyPage.totals, ["paid", "awaiting_approval", "pending", "disputed", "void"]));
  const rows = historyPage.payouts.map((p) => el("tr", { "data-id": p.id, onclick: () => openRecord(p.id) },
    el("td", {}, dated(p.created)), el("td", {}, p.id), el("td", {}, whereText(p)),
    el("td", { class: "num" }, dollars(p.amount)), el("td", {}, badge(p.status)),
    el("td", {}, [p.paid_by, p.witness ? "witness " + p.witness : ""].filter(Boolean).join(" · ")),
    el("td", {}, p.slip || "")));
  document.querySelector("#history tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 7, class: "empty" }, "No payout matches."))]));
  document.getElementById("history-more").hidden = !historyPage.next;
}
document.getElementById("history-form").addEventListener("submit", (event) => {
  event.preventDefault();
  searchHistory(false);
});
document.getElementById("history-form").addEventListener("reset", () => {
  setTimeout(() => searchHistory(false), 0);  // once the fields are empty
});
document.getElementById("history-more").addEventListener("click", () => searchHistory(true));
function poolChoices() {
  const select = document.getElementById("h-pool");
  const ids = state.pools.map((p) => p.pool);
  const have = [...select.options].map((o) => o.value).filter(Boolean);
  if (ids.join() === have.join()) return;
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "" }, "any"), ...ids.map((id) => el("option", { value: id }, id)));
  select.value = chosen;
}

const STEP_WORDS = { won: "Won", held: "Held for verification", confirmed: "Confirmed, awaiting approval",
                     paid: "Confirmed paid", approved: "Approved: paid", disputed: "Disputed",
                     void_requested: "Void asked, awaiting another operator",
                     void_withdrawn: "Void request withdrawn", voided: "Voided" };
function stepWords(s) {  // a refusal by another person, or the asker's own withdrawal
  if (s.step === "void_refused")
    return s.withdrawn ? "Void withdrawn by the one who asked" : "Void refused";
  return STEP_WORDS[s.step] || words(s.step);
}
let recordShown = null;
async function openRecord(id) {
  let found;
  try {
    found = await api("GET", "/v1/payouts/" + encodeURIComponent(id) + "/record");
  } catch (e) {
    showToast("The record of " + id + " could not be read: " + e.message);
    return;
  }
  const p = { ...found.payout, checkpoint: found.checkpoint };
  recordShown = p;
  document.getElementById("record-title").textContent =
    (p.kind ? HAND_PAY_KIND[p.kind] : "Jackpot") + " " + p.id + " · " + dollars(p.amount);
  document.getElementById("record-summary").textContent = STATUS_WORDS[p.status] + " · " +
    wonText(p) + " · " + whereText(p) + " · round " + p.round + (p.player ? " · player " + p.player : "") +
    " · journals checkpoint " + checkpointText(p.checkpoint);
  document.getElementById("record-steps").replaceChildren(...found.steps.map((s) => {
    const recorded = [s.paid_by ? "paid by " + s.paid_by : "", s.witness ? "witness " + s.witness : "",
      s.slip ? "slip " + s.slip : "", s.approver ? "approved by " + s.approver : "",
      s.from ? "was " + (STATUS_WORDS[s.from] || s.from).toLowerCase() : "",
      s.amount !== undefined ? dollars(s.amount) : "",
      s.requester ? "asked by " + s.requester : "",
      s.reason ? "reason: " + s.reason : "", s.note || ""].filter(Boolean).join(" · ");
    return el("tr", { "data-step": s.step },
      el("td", {}, dated(s.at)), el("td", {}, stepWords(s)),
      el("td", {}, s.person || s.who), el("td", {}, recorded),
      el("td", {}, "#" + s.seq, s.hash ? el("div", { class: "hash", title: s.hash }, s.hash.slice(0, 12) + "…")
                                       : el("div", { class: "hash" }, "not archived yet")));
  }));
  document.getElementById("record").showModal();
}
document.getElementById("record-close").addEventListener("click", () => document.getElementById("record").close());
document.getElementById("record-slip").addEventListener("click", () => {
  document.getElementById("record").close();
  if (recordShown) printSlip(recordShown);
});

// ---- the closed gaming days: each day's files (the CSVs an accounting system imports) and
// its printed report, for a key that may read them (an auditor's: docs/API.md)
const DAYS_SHOWN = 7;  // the last week; older days are chosen in the day report
const DAYS_MS = 5 * 60 * 1000;  // a day closes once a day: read again every five minutes
let daysTimer = null;
async function loadDays() {
  const said = document.getElementById("days-said");
  let days;
  try {
    days = (await api("GET", "/v1/accounting/days")).days;
  } catch (e) {
    if (e.status === 403) {  // not this key's to read: no card, and no asking again
      clearInterval(daysTimer);
      document.getElementById("days-section").hidden = true;
      return;
    }
    document.getElementById("days-section").hidden = false;
    said.textContent = "The closed days could not be read: " + e.message;
    said.className = "saved error unread";  // said until they are read again
    return;
  }
  document.getElementById("days-section").hidden = false;
  if (said.classList.contains("unread")) { said.textContent = ""; said.className = "saved"; }
  renderDays(days);
}
function weekday(day) {  // "Sat" of "2026-11-28": the day's own date, whatever the zone
  return new Intl.DateTimeFormat("en-US", { weekday: "short", timeZone: "UTC" })
    .format(new Date(day + "T12:00:00Z"));
}
function renderDays(days) {
  const said = document.getElementById("days-said");
  const rows = days.slice(-DAYS_SHOWN).reverse().map((d) => el("tr", { "data-day": d.day },
    el("td", {}, el("strong", {}, d.day), " ", el("span", { class: "muted" }, weekday(d.day))),
    el("td", {}, dated(Date.parse(d.closed_at))),
    el("td", {}, el("span", { class: "badge " + (d.balanced ? "good" : "bad") },
      d.balanced ? "Every pool balanced" : "A pool did not balance"),
      d.table_counts_balanced === false
        ? el("span", { class: "badge bad" }, "A table's own counts differ") : null),
    el("td", {}, el("div", { class: "files" }, ...session.day_files.map((name) => el("button", {
      type: "button", "data-file": name, title: "Save " + name + ".csv of " + d.day,
      onclick: (event) => saveDayFile(event.currentTarget, d.day, name, said) }, name + ".csv")))),
    el("td", {}, el("a", { class: "button", href: "/reports/day?day=" + d.day }, "Day report"))));
  document.querySelector("#days tbody").replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 5, class: "empty" }, "No gaming day has been closed yet."))]));
  document.getElementById("days-count").textContent = days.length === 1 ? "1 closed"
    : days.length + " closed";
  const older = document.getElementById("days-older");
  older.hidden = days.length <= DAYS_SHOWN;
  older.replaceChildren("Older days: choose them in the ",
    el("a", { href: "/reports/day" }, "day report"), ", which saves their files too.");
}

// ---- the casino's clock ----
function tick() {
  if (session) document.getElementById("clock").textContent =
    zoned(Date.now(), true) + " " + session.time_zone;
}
setInterval(tick, 1000);

(async () => {
  const key = sessionStorage.getItem(KEY_SLOT);
  if (key) {
    try { await signIn(key); return; } catch (e) { /* ask again */ }
  }
  document.getElementById("login").hidden = false;
})();
