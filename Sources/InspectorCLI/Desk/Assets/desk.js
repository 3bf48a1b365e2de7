// The inspectors' desk in the browser (docs/web-desk.md "The page").
//
// Plain JavaScript, no framework, no build step, nothing from other hosts. Every value from
// the case reaches the page through textContent (or an attribute set with setAttribute), never
// as HTML, so a suspect named <script> is shown as text. Styles come from desk.css; the few
// values computed here (a fruit's colour, the inspector's width) are set through element.style,
// which the Content-Security-Policy allows.

"use strict";

// MARK: - Constants

const PAGE_SIZE = 50;
const REFRESH_LIMIT = 500;
const WIDTH_KEY = "inspector.width";
const SHOWN_KEY = "inspector.shown";
const SHEET_KEY = "inspector.sheet";
const MIN_WIDTH = 200;
const MAX_WIDTH = 400;
const DEFAULT_WIDTH = 300;
const NEW_SLEEP_SCHEDULE = { sleep: "22:30", wake: "06:30" };
const CLUE_NAMES = {
  paw_size: "Paw size",
  favorite_fruit: "Favourite fruit",
  no_alibi: "No alibi",
  awake: "Awake",
};
const COMPACT = window.matchMedia("(max-width: 699px)");

// MARK: - State

const state = {
  session: { investigator: null, csrf_token: null, read_only: false, public_read: false },
  canRead: false,
  fruits: [],
  fruitsByName: new Map(),
  fruitsById: new Map(),
  rows: [],
  next: null,
  loading: false,
  generation: 0,
  sort: "id",
  order: "asc",
  filters: { name: "", species: "", paw_size: "", fruit: "", level_min: "", level_max: "" },
  selectedId: null,
  selected: null,
  editBase: new Map(),
  asOf: null,
  incidents: [],
  incidentId: null,
  explain: false,
  events: null,
};

const $ = (id) => document.getElementById(id);

// MARK: - Small DOM helpers (text only, never HTML)

/** Makes an element with a class and text; children appended in order. */
function el(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined && options.text !== null) node.textContent = String(options.text);
  if (options.attrs) {
    for (const [name, value] of Object.entries(options.attrs)) {
      if (value !== undefined && value !== null) node.setAttribute(name, String(value));
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function clear(node) {
  node.replaceChildren();
}

function button(text, onClick, className) {
  const b = el("button", { text, className, attrs: { type: "button" } });
  b.addEventListener("click", onClick);
  return b;
}

// MARK: - The API

class APIError extends Error {
  constructor(status, error) {
    super((error && error.message) || `request failed (${status})`);
    this.status = status;
    this.error = error || {};
  }
}

/** Reads `path` (an /api/ path with its query) as JSON, adding as_of when the page shows the past. */
async function read(path, params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.append(name, String(value));
  }
  if (state.asOf) query.set("as_of", state.asOf);
  const text = query.toString();
  return request("GET", text ? `${path}?${text}` : path);
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin", cache: "no-store" };
  if (method !== "GET") {
    if (state.session.csrf_token) headers["X-CSRF-Token"] = state.session.csrf_token;
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new APIError(0, { kind: "network", message: "The desk cannot be reached." });
  }
  const text = await response.text();
  let json = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch (error) {
      json = null;
    }
  }
  if (!response.ok) {
    const failure = json && json.error ? json.error : { message: `${response.status} ${response.statusText}` };
    if (response.status === 503 && response.headers.get("Retry-After")) {
      failure.message = `${failure.message || "busy"} (try again in ${response.headers.get("Retry-After")} s)`;
    }
    throw new APIError(response.status, failure);
  }
  return json;
}

function errorText(error) {
  if (!(error instanceof APIError)) return String(error && error.message ? error.message : error);
  const parts = [error.error.message || error.message];
  if (error.error.hint) parts.push(error.error.hint);
  if (Array.isArray(error.error.candidates) && error.error.candidates.length) {
    parts.push(`Candidates: ${error.error.candidates.map(describeCandidate).join(", ")}`);
  }
  return parts.join(" ");
}

function describeCandidate(candidate) {
  if (candidate && typeof candidate === "object") {
    return candidate.name && candidate.species ? `${candidate.name} the ${candidate.species}` : JSON.stringify(candidate);
  }
  return String(candidate);
}

function showPageError(error) {
  const box = $("page-error");
  if (!error) {
    box.hidden = true;
    clear(box);
    return;
  }
  box.textContent = typeof error === "string" ? error : errorText(error);
  box.hidden = false;
}

// MARK: - Bands, colours and badges

/** The band of a level, as the command line draws it (Unlikely, Fishy, ...). */
function band(level) {
  if (typeof level !== "number" || Number.isNaN(level)) return { label: "Suspiciously Unsuspicious", color: "blue" };
  if (level >= 0 && level < 0.2) return { label: "Unlikely", color: "green" };
  if (level >= 0.2 && level < 0.5) return { label: "Fishy", color: "mint" };
  if (level >= 0.5 && level < 0.9) return { label: "Very suspicious", color: "orange" };
  if (level >= 0.9 && level <= 1) return { label: "Extremely suspicious!", color: "red" };
  return { label: "Suspiciously Unsuspicious", color: "blue" };
}

/** A CSS colour for a fruit's stored colour (a name or #RRGGBB), or null when CSS knows no such colour. */
function cssColor(color) {
  if (typeof color !== "string" || !color) return null;
  if (/^#[0-9a-fA-F]{6}$/.test(color)) return color;
  const compact = color.replace(/[\s-]/g, "");
  if (window.CSS && CSS.supports("color", compact)) return compact;
  return null;
}

function fruitBadge(name, large) {
  const fruit = name === null ? null : state.fruitsByName.get(String(name).toLowerCase());
  const badge = el("span", {
    className: `fruit-badge${large ? " large" : ""}${name === null ? " missing" : ""}`,
    attrs: { title: name === null ? "a fruit that no longer exists" : name, role: "img", "aria-label": name === null ? "missing fruit" : name },
  });
  const color = fruit ? cssColor(fruit.color) : null;
  if (color) badge.style.backgroundColor = color;
  return badge;
}

function levelCell(level) {
  const b = band(level);
  const cell = el("span", { className: `level-cell band-${b.color}` });
  const bars = el("span", { className: "bars", attrs: { "aria-hidden": "true" } });
  const filled = typeof level === "number" && level > 0 ? Math.min(4, Math.ceil(level * 4)) : 0;
  for (let i = 1; i <= 4; i++) {
    bars.append(el("span", { className: `bar b${i}${i <= filled ? " filled" : ""}` }));
  }
  cell.append(bars, el("span", { className: "level-text", text: b.label, attrs: { title: `suspicion level ${formatLevel(level)}` } }));
  return cell;
}

function formatLevel(level) {
  return typeof level === "number" ? String(Math.round(level * 1000) / 1000) : "?";
}

function suspectTitle(suspect) {
  return `${suspect.name} the ${suspect.species}`;
}

function capitalized(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// MARK: - The table

function tableParams(extra = {}) {
  const params = { sort: state.sort, order: state.order, limit: PAGE_SIZE };
  for (const [name, value] of Object.entries(state.filters)) {
    if (value !== "") params[name] = value;
  }
  return Object.assign(params, extra);
}

/**
 * Reads a page of suspects for the table's read number `generation` and hands it to `show`,
 * unless a newer read began meanwhile (the newer one wins); a failure is reported, and the
 * loading state ends, for the newest read only.
 */
async function readSuspectPage(generation, params, show) {
  try {
    const page = await read("/api/suspects", params);
    if (generation === state.generation) show(page);
  } catch (error) {
    if (generation === state.generation) handleReadError(error);
  } finally {
    if (generation === state.generation) {
      state.loading = false;
      updateTableEnd();
    }
  }
}

/** Loads the first page again (reset) or the next page after the cursor. */
async function loadSuspects(reset) {
  if (!state.canRead) return;
  if (!reset && (state.loading || !state.next)) return;
  const generation = reset ? ++state.generation : state.generation;
  state.loading = true;
  setTableStatus("Loading…");
  await readSuspectPage(generation, tableParams(reset ? {} : { after: state.next }), (page) => {
    const suspects = Array.isArray(page.suspects) ? page.suspects : [];
    if (reset) {
      state.rows = suspects;
      renderRows();
      $("table-scroll").scrollTop = 0;
    } else {
      state.rows.push(...suspects);
      appendRows(suspects);
    }
    state.next = page.next || null;
    showPageError(null);
  });
}

/** Reads the rows already shown again (live changes, an edit's neighbours), keeping scroll and selection. */
async function refreshSuspects() {
  if (!state.canRead) return;
  const generation = ++state.generation;
  const limit = Math.min(REFRESH_LIMIT, Math.max(PAGE_SIZE, state.rows.length));
  await readSuspectPage(generation, tableParams({ limit }), (page) => {
    state.rows = Array.isArray(page.suspects) ? page.suspects : [];
    state.next = page.next || null;
    const hadFocus = document.activeElement && document.activeElement.closest && document.activeElement.closest("#suspect-rows");
    renderRows();
    if (hadFocus) focusSelectedRow();
  });
}

function setTableStatus(text) {
  $("table-status").textContent = text;
}

function updateTableEnd() {
  const count = state.rows.length;
  const more = Boolean(state.next);
  $("load-more").hidden = !more;
  if (count === 0) setTableStatus(state.canRead ? "No suspects match." : "");
  else setTableStatus(`${count} suspect${count === 1 ? "" : "s"} shown${more ? "; scroll for more" : ""}.`);
}

function renderRows() {
  const body = $("suspect-rows");
  clear(body);
  appendRows(state.rows);
  updateSortHeaders();
}

function appendRows(suspects) {
  const body = $("suspect-rows");
  const fragment = document.createDocumentFragment();
  for (const suspect of suspects) fragment.append(rowFor(suspect));
  body.append(fragment);
  ensureRovingFocus();
}

function rowFor(suspect) {
  const selected = suspect.id === state.selectedId;
  const row = el("tr", {
    attrs: { "data-id": suspect.id, "aria-selected": selected ? "true" : "false", tabindex: selected ? "0" : "-1" },
  });
  const tile = el("span", { className: "emoji-tile", text: suspect.emoji || "", attrs: { "aria-hidden": "true" } });
  const name = el("td", { className: "col-name" }, [
    el("span", { className: "name-cell" }, [tile, el("span", { className: "suspect-title", text: suspectTitle(suspect) })]),
  ]);
  const badges = el("span", { className: "fruit-badges" });
  for (const fruit of (suspect.favorite_fruits || []).slice(0, 3)) badges.append(fruitBadge(fruit, false));
  const fruits = el("td", { className: "col-fruits" }, [badges]);
  const level = el("td", { className: "col-level" }, [levelCell(suspect.suspicion_level)]);
  row.append(name, fruits, level);
  return row;
}

function replaceRow(suspect) {
  const index = state.rows.findIndex((row) => row.id === suspect.id);
  if (index < 0) return;
  state.rows[index] = suspect;
  const old = $("suspect-rows").querySelector(`tr[data-id="${suspect.id}"]`);
  if (old) {
    const hadFocus = old.contains(document.activeElement);
    const fresh = rowFor(suspect);
    old.replaceWith(fresh);
    if (hadFocus) fresh.focus();
  }
}

function ensureRovingFocus() {
  const body = $("suspect-rows");
  if (!body.querySelector('tr[tabindex="0"]') && body.firstElementChild) body.firstElementChild.setAttribute("tabindex", "0");
}

function focusSelectedRow() {
  const row = $("suspect-rows").querySelector(`tr[data-id="${state.selectedId}"]`);
  if (row) row.focus();
}

function updateSortHeaders() {
  for (const sortButton of document.querySelectorAll(".sort-button")) {
    const th = sortButton.closest("th");
    // The level's own order is the most suspicious first; the others' is A to Z.
    const descending = (state.order === "desc") !== (state.sort === "level");
    if (sortButton.dataset.sort === state.sort) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    else th.setAttribute("aria-sort", "none");
  }
  $("sort-select").value = state.sort;
  $("order-select").value = state.order;
}

function selectRow(row, focus) {
  if (!row) return;
  const id = Number(row.dataset.id);
  for (const other of $("suspect-rows").querySelectorAll('tr[aria-selected="true"], tr[tabindex="0"]')) {
    other.setAttribute("aria-selected", "false");
    other.setAttribute("tabindex", "-1");
  }
  row.setAttribute("aria-selected", "true");
  row.setAttribute("tabindex", "0");
  if (focus) {
    row.focus();
    row.scrollIntoView({ block: "nearest" });
  }
  const suspect = state.rows.find((r) => r.id === id);
  if (suspect) selectSuspect(suspect);
}

function onTableKey(event) {
  const row = event.target.closest("tr[data-id]");
  if (!row) return;
  let target = null;
  switch (event.key) {
    case "ArrowDown":
      target = row.nextElementSibling;
      if (!target && state.next) loadSuspects(false);
      break;
    case "ArrowUp":
      target = row.previousElementSibling;
      break;
    case "Home":
      target = row.parentElement.firstElementChild;
      break;
    case "End":
      target = row.parentElement.lastElementChild;
      break;
    case "PageDown":
      target = row;
      for (let i = 0; i < 10 && target.nextElementSibling; i++) target = target.nextElementSibling;
      break;
    case "PageUp":
      target = row;
      for (let i = 0; i < 10 && target.previousElementSibling; i++) target = target.previousElementSibling;
      break;
    case "Enter":
    case " ":
      event.preventDefault();
      if (Number(row.dataset.id) !== state.selectedId) selectRow(row, false);
      setInspectorShown(true);
      focusInspector();
      return;
    default:
      return;
  }
  event.preventDefault();
  if (target) selectRow(target, true);
}

function focusInspector() {
  const first = $("field-name");
  if (!$("inspector-form").hidden && !first.disabled) first.focus();
  else $("inspector").focus();
}

// MARK: - Sorting and filtering

function onSortHeader(event) {
  const sortButton = event.target.closest(".sort-button");
  if (!sortButton) return;
  const sort = sortButton.dataset.sort;
  if (state.sort === sort) state.order = state.order === "asc" ? "desc" : "asc";
  else {
    state.sort = sort;
    state.order = "asc";
  }
  saveURL();
  loadSuspects(true);
}

function readFilterForm() {
  state.filters = {
    name: $("filter-name").value.trim(),
    species: $("filter-species").value.trim(),
    paw_size: $("filter-paw").value,
    fruit: $("filter-fruit").value,
    level_min: $("filter-level-min").value.trim(),
    level_max: $("filter-level-max").value.trim(),
  };
  state.sort = $("sort-select").value;
  state.order = $("order-select").value;
}

function writeFilterForm() {
  $("filter-name").value = state.filters.name;
  $("filter-species").value = state.filters.species;
  $("filter-paw").value = state.filters.paw_size;
  $("filter-fruit").value = state.filters.fruit;
  $("filter-level-min").value = state.filters.level_min;
  $("filter-level-max").value = state.filters.level_max;
  updateSortHeaders();
}

function fillFruitFilter() {
  const select = $("filter-fruit");
  const current = state.filters.fruit;
  clear(select);
  select.append(el("option", { text: "Any", attrs: { value: "" } }));
  for (const fruit of state.fruits) select.append(el("option", { text: fruit.name, attrs: { value: fruit.name } }));
  select.value = current;
}

/** The page's state in its address (filters, sort, as-of, the selected suspect), so a view can be bookmarked. */
function saveURL() {
  const query = new URLSearchParams();
  if (state.sort !== "id") query.set("sort", state.sort);
  if (state.order !== "asc") query.set("order", state.order);
  for (const [name, value] of Object.entries(state.filters)) if (value !== "") query.set(name, value);
  if (state.asOf) query.set("as_of", state.asOf);
  if (state.selectedId !== null) query.set("suspect", String(state.selectedId));
  const text = query.toString();
  history.replaceState(null, "", text ? `?${text}` : location.pathname);
}

function loadURL() {
  const query = new URLSearchParams(location.search);
  const sort = query.get("sort");
  if (["id", "name", "species", "level", "fruits"].includes(sort)) state.sort = sort;
  if (query.get("order") === "desc") state.order = "desc";
  for (const name of Object.keys(state.filters)) state.filters[name] = query.get(name) || "";
  state.asOf = query.get("as_of") || null;
  const suspect = Number(query.get("suspect"));
  if (Number.isInteger(suspect) && suspect > 0) state.selectedId = suspect;
}

// MARK: - The inspector: showing, width and the compact sheet

function setInspectorShown(shown) {
  $("desk").classList.toggle("inspector-hidden", !shown);
  $("toggle-inspector").setAttribute("aria-expanded", shown ? "true" : "false");
  localStorage.setItem(SHOWN_KEY, shown ? "1" : "0");
}

function inspectorShown() {
  return !$("desk").classList.contains("inspector-hidden");
}

function setInspectorWidth(width, remember) {
  const clamped = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));
  document.documentElement.style.setProperty("--inspector-width", `${clamped}px`);
  const resizer = $("inspector-resizer");
  resizer.setAttribute("aria-valuenow", String(clamped));
  resizer.setAttribute("aria-valuetext", `${clamped} pixels`);
  if (remember) localStorage.setItem(WIDTH_KEY, String(clamped));
  return clamped;
}

function currentWidth() {
  return Number($("inspector-resizer").getAttribute("aria-valuenow")) || DEFAULT_WIDTH;
}

function setupResizer() {
  const resizer = $("inspector-resizer");
  const stored = Number(localStorage.getItem(WIDTH_KEY));
  setInspectorWidth(Number.isFinite(stored) && stored > 0 ? stored : DEFAULT_WIDTH, false);
  resizer.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    resizer.setPointerCapture(event.pointerId);
    resizer.classList.add("dragging");
    const startX = event.clientX;
    const startWidth = currentWidth();
    const move = (moveEvent) => setInspectorWidth(startWidth + (startX - moveEvent.clientX), false);
    const end = () => {
      resizer.classList.remove("dragging");
      resizer.removeEventListener("pointermove", move);
      resizer.removeEventListener("pointerup", end);
      resizer.removeEventListener("pointercancel", end);
      setInspectorWidth(currentWidth(), true);
    };
    resizer.addEventListener("pointermove", move);
    resizer.addEventListener("pointerup", end);
    resizer.addEventListener("pointercancel", end);
  });
  resizer.addEventListener("keydown", (event) => {
    const step = event.shiftKey ? 50 : 10;
    let width = null;
    if (event.key === "ArrowLeft") width = currentWidth() + step;
    else if (event.key === "ArrowRight") width = currentWidth() - step;
    else if (event.key === "Home") width = MIN_WIDTH;
    else if (event.key === "End") width = MAX_WIDTH;
    if (width === null) return;
    event.preventDefault();
    setInspectorWidth(width, true);
  });
}

function setSheetSize(size) {
  const inspector = $("inspector");
  const large = size === "large";
  inspector.classList.toggle("sheet-large", large);
  inspector.classList.toggle("sheet-medium", !large);
  inspector.style.removeProperty("height");
  $("sheet-handle").setAttribute(
    "aria-label",
    large ? "Sheet height: large. Press to make it medium." : "Sheet height: medium. Press to make it large.",
  );
  $("sheet-handle").setAttribute("aria-expanded", large ? "true" : "false");
  localStorage.setItem(SHEET_KEY, large ? "large" : "medium");
}

function sheetSize() {
  return $("inspector").classList.contains("sheet-large") ? "large" : "medium";
}

function setupSheet() {
  const handle = $("sheet-handle");
  const inspector = $("inspector");
  setSheetSize(localStorage.getItem(SHEET_KEY) === "large" ? "large" : "medium");
  let drag = null;
  handle.addEventListener("pointerdown", (event) => {
    if (!COMPACT.matches) return;
    handle.setPointerCapture(event.pointerId);
    drag = { startY: event.clientY, startHeight: inspector.getBoundingClientRect().height, moved: false };
    inspector.classList.add("dragging");
  });
  handle.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dy = drag.startY - event.clientY;
    if (Math.abs(dy) > 4) drag.moved = true;
    const height = Math.max(window.innerHeight * 0.3, Math.min(window.innerHeight * 0.92, drag.startHeight + dy));
    inspector.style.height = `${height}px`;
  });
  const end = () => {
    if (!drag) return;
    const moved = drag.moved;
    const height = inspector.getBoundingClientRect().height;
    inspector.classList.remove("dragging");
    drag = null;
    if (moved) {
      // Settle on the nearer of the two heights.
      setSheetSize(height > window.innerHeight * 0.69 ? "large" : "medium");
      handle.dataset.dragged = "1";
    }
  };
  handle.addEventListener("pointerup", end);
  handle.addEventListener("pointercancel", end);
  handle.addEventListener("click", () => {
    if (handle.dataset.dragged) {
      delete handle.dataset.dragged;
      return;
    }
    setSheetSize(sheetSize() === "large" ? "medium" : "large");
  });
  handle.addEventListener("keydown", (event) => {
    if (event.key === "ArrowUp") setSheetSize("large");
    else if (event.key === "ArrowDown") setSheetSize("medium");
    else if (event.key === "Escape") setInspectorShown(false);
    else return;
    event.preventDefault();
  });
}

// MARK: - The inspector: the selected suspect

function canWrite() {
  return Boolean(state.session.investigator) && !state.session.read_only && !state.asOf;
}

async function selectSuspect(suspect) {
  const changed = state.selectedId !== suspect.id;
  if (changed) flushAllSaves();
  state.selectedId = suspect.id;
  state.selected = suspect;
  if (changed) {
    state.editBase.clear();
    clearFieldErrors();
  }
  saveURL();
  renderInspector(changed);
  if (changed) loadHistory();
}

/** Selects a suspect that may not be among the loaded rows (a search hit, a ranking row). */
async function selectSuspectById(id) {
  const row = $("suspect-rows").querySelector(`tr[data-id="${id}"]`);
  if (row) {
    selectRow(row, true);
    setInspectorShown(true);
    return;
  }
  try {
    const suspect = await read(`/api/suspects/${id}`);
    for (const other of $("suspect-rows").querySelectorAll('tr[aria-selected="true"]')) other.setAttribute("aria-selected", "false");
    selectSuspect(suspect);
    setInspectorShown(true);
    focusInspector();
  } catch (error) {
    showPageError(error);
  }
}

function renderInspector(fresh) {
  const suspect = state.selected;
  $("inspector-empty").hidden = Boolean(suspect);
  $("inspector-form").hidden = !suspect;
  if (!suspect) return;
  const writable = canWrite();
  const note = $("inspector-readonly");
  if (writable) {
    note.hidden = true;
  } else {
    note.hidden = false;
    if (state.asOf) note.textContent = "Showing the case as it stood then: read-only.";
    else if (state.session.read_only) note.textContent = "This desk is read-only.";
    else note.textContent = "Sign in to edit.";
  }
  setValue($("field-name"), suspect.name, fresh);
  setValue($("field-species"), suspect.species, fresh);
  setValue($("field-emoji"), suspect.emoji || "", fresh);
  setValue($("field-paw"), suspect.paw_size, fresh);
  setValue($("field-alibi"), suspect.alibi, fresh);
  $("field-alibi").setAttribute("placeholder", `What was ${suspect.name} doing at the time of nibbling?`);
  const schedule = suspect.sleep_schedule;
  $("sleep-times").hidden = !schedule;
  $("sleep-add").hidden = Boolean(schedule);
  if (schedule) {
    setValue($("field-sleep"), schedule.sleep, fresh);
    setValue($("field-wake"), schedule.wake, fresh);
  }
  setValue($("field-level"), String(suspect.suspicion_level), fresh);
  showLevelLabel(suspect.suspicion_level);
  renderFruitToggles();
  for (const control of $("inspector-form").querySelectorAll("input, select, textarea, button")) {
    // The history's buttons stay usable; the fruit list set its own (first up, last down off).
    if (control.closest(".history-section") || control.closest("#fruit-toggles")) continue;
    control.disabled = !writable;
  }
}

/** Sets a control's value unless the reader is editing it (focused, or with an edit not yet answered). */
function setValue(control, value, force) {
  const field = control.dataset.field;
  const editing =
    document.activeElement === control || (field && (state.editBase.has(field) || saveTimers.has(field)));
  if (!force && editing) return;
  control.value = value;
}

function showLevelLabel(level) {
  const b = band(level);
  const label = $("level-label");
  label.className = `level-label band-${b.color}`;
  label.textContent = `${b.label} (${formatLevel(level)})`;
  $("field-level").setAttribute("aria-valuetext", `${formatLevel(level)}, ${b.label}`);
}

let renderedFruits = null;

function renderFruitToggles() {
  const list = $("fruit-toggles");
  // Redrawn only when something it shows changed, so a live refresh leaves its buttons alone.
  const key = JSON.stringify([state.selectedId, state.selected && state.selected.favorite_fruits, canWrite(), state.fruits]);
  if (key === renderedFruits) return;
  renderedFruits = key;
  const focusedKey = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  clear(list);
  const chosen = state.selected ? state.selected.favorite_fruits || [] : [];
  const chosenKeys = chosen.map((name) => (name === null ? null : name.toLowerCase()));
  const writable = canWrite();
  let serial = 0;
  chosen.forEach((name, index) => {
    list.append(fruitToggle(name, true, index, chosen.length, writable, serial++));
  });
  if (chosen.length) list.append(el("li", { className: "divider", attrs: { "aria-hidden": "true" } }));
  for (const fruit of state.fruits) {
    if (chosenKeys.includes(fruit.name.toLowerCase())) continue;
    list.append(fruitToggle(fruit.name, false, -1, chosen.length, writable, serial++));
  }
  if (focusedKey) {
    const again = list.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
}

function fruitToggle(name, chosen, index, count, writable, serial) {
  const id = `fruit-toggle-${serial}`;
  const item = el("li", { className: `fruit-toggle${chosen ? " chosen" : ""}` });
  const box = el("input", { attrs: { type: "checkbox", id, "data-key": `toggle:${name}` } });
  box.checked = chosen;
  box.disabled = !writable || name === null;
  box.addEventListener("change", () => toggleFruit(name, box.checked));
  const label = el("label", { attrs: { for: id } }, [
    fruitBadge(name, false),
    el("span", { className: "fruit-name", text: name === null ? "(missing fruit)" : name }),
  ]);
  item.append(el("span", { className: "fruit-order", text: chosen ? String(index + 1) : "", attrs: { "aria-hidden": "true" } }), box, label);
  if (chosen) {
    const up = button("\u2191", () => moveFruit(index, -1), "move-button");
    up.setAttribute("aria-label", `Move ${name} up`);
    up.dataset.key = `up:${name}`;
    up.disabled = !writable || index === 0;
    const down = button("\u2193", () => moveFruit(index, 1), "move-button");
    down.setAttribute("aria-label", `Move ${name} down`);
    down.dataset.key = `down:${name}`;
    down.disabled = !writable || index === count - 1;
    item.append(up, down);
  }
  return item;
}

// The new list is worked out when the edit is sent, from the list the edit before it stored,
// so two quick toggles add both fruits.
function toggleFruit(name, on) {
  const same = (n) => n !== null && n.toLowerCase() === name.toLowerCase();
  saveField("favorite_fruits", (before) => {
    if (on) return before.some(same) ? before.slice() : [...before, name];
    return before.filter((n) => !same(n));
  });
}

function moveFruit(index, delta) {
  const name = (state.selected.favorite_fruits || [])[index];
  saveField("favorite_fruits", (before) => {
    const list = before.slice();
    const from = list.indexOf(name);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= list.length) return list;
    [list[from], list[to]] = [list[to], list[from]];
    return list;
  });
}

// MARK: - Saving an edit

function fieldControls(field) {
  return Array.from($("inspector-form").querySelectorAll(`[data-field="${field}"]`));
}

function clearFieldErrors() {
  for (const box of $("inspector-form").querySelectorAll(".field-error")) clear(box);
  for (const control of $("inspector-form").querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
}

function setFieldError(field, content) {
  const box = $(`error-${field}`);
  if (!box) return showPageError(typeof content === "string" ? content : content.textContent);
  clear(box);
  for (const control of fieldControls(field)) control.setAttribute("aria-invalid", "true");
  if (content === null) {
    for (const control of fieldControls(field)) control.removeAttribute("aria-invalid");
    return;
  }
  box.append(content);
}

function formatValue(field, value) {
  if (value === null || value === undefined) return field === "sleep_schedule" ? "no sleep schedule" : "none";
  switch (field) {
    case "favorite_fruits":
      return value.length ? value.map((n) => (n === null ? "(missing fruit)" : n)).join(", ") : "no favourites";
    case "sleep_schedule":
      return `asleep ${value.sleep}, awake ${value.wake}`;
    case "suspicion_level":
      return `${formatLevel(value)} (${band(value).label})`;
    case "alibi":
      return value === "" ? "no alibi" : `\u201C${value}\u201D`;
    case "paw_size":
      return capitalized(value);
    default:
      return `\u201C${value}\u201D`;
  }
}

/** The value a control shows, as the API's JSON for its field. */
function controlValue(field) {
  switch (field) {
    case "emoji": {
      const text = $("field-emoji").value.trim();
      return text === "" ? null : text;
    }
    case "suspicion_level":
      return Number($("field-level").value);
    case "sleep_schedule":
      return { sleep: $("field-sleep").value, wake: $("field-wake").value };
    case "name":
      return $("field-name").value;
    case "species":
      return $("field-species").value;
    case "paw_size":
      return $("field-paw").value;
    case "alibi":
      return $("field-alibi").value;
    default:
      return null;
  }
}

function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Saves one field as PATCH /api/suspects/{id} {field, expected, value}: expected is the value
 * the page showed when the reader began the edit. The answer (the suspect after the change)
 * replaces the table's row at once.
 */
function saveField(field, value, expectedOverride) {
  if (!state.selected || !canWrite()) return Promise.resolve();
  // One field's edits go out one after the other, each expecting what the one before stored.
  const captured = state.selected;
  const previous = saveQueue.get(field) || Promise.resolve();
  const next = previous.then(() => sendField(field, value, expectedOverride, captured));
  saveQueue.set(field, next);
  next.finally(() => {
    if (saveQueue.get(field) === next) saveQueue.delete(field);
  });
  return next;
}

const saveQueue = new Map();
const saveTimers = new Map();

/** Saves a field whose control changes in steps (a slider, a time) once it rests, or when it loses focus. */
function saveSoon(field, delay) {
  rememberBase(field);
  clearTimeout(saveTimers.get(field));
  saveTimers.set(
    field,
    setTimeout(() => {
      saveTimers.delete(field);
      saveField(field, controlValue(field));
    }, delay),
  );
}

function flushSave(field) {
  if (!saveTimers.has(field)) return;
  clearTimeout(saveTimers.get(field));
  saveTimers.delete(field);
  saveField(field, controlValue(field));
}

function flushAllSaves() {
  for (const field of Array.from(saveTimers.keys())) flushSave(field);
}

async function sendField(field, newValue, expectedOverride, captured) {
  const same = state.selected && state.selected.id === captured.id;
  const suspect = same ? state.selected : captured;
  const value = typeof newValue === "function" ? newValue(suspect[field] || []) : newValue;
  const expected =
    expectedOverride !== undefined ? expectedOverride : same && state.editBase.has(field) ? state.editBase.get(field) : suspect[field];
  if (expectedOverride === undefined && sameValue(expected, value)) {
    state.editBase.delete(field);
    setFieldError(field, null);
    return;
  }
  setFieldError(field, null);
  try {
    const updated = await request("PATCH", `/api/suspects/${suspect.id}`, { field, expected, value });
    state.editBase.delete(field);
    if (state.selectedId === updated.id) {
      state.selected = updated;
      renderInspector(false);
      forceField(field, updated);
    }
    replaceRow(updated);
    loadHistory();
    refreshRanking();
  } catch (error) {
    if (error instanceof APIError && error.status === 409 && error.error.kind === "conflict") {
      showConflict(field, value, error.error);
    } else if (error instanceof APIError && (error.status === 401 || error.status === 403) && !error.error.field) {
      setFieldError(field, document.createTextNode(errorText(error)));
      if (error.status === 401) loadSession();
    } else {
      setFieldError(field, document.createTextNode(errorText(error)));
    }
  }
}

/** Shows a field's saved value even if its control has focus (after its own edit was saved). */
function forceField(field, suspect) {
  switch (field) {
    case "name":
      $("field-name").value = suspect.name;
      break;
    case "species":
      $("field-species").value = suspect.species;
      break;
    case "emoji":
      $("field-emoji").value = suspect.emoji || "";
      break;
    case "alibi":
      $("field-alibi").value = suspect.alibi;
      break;
    case "suspicion_level":
      $("field-level").value = String(suspect.suspicion_level);
      break;
    case "sleep_schedule":
      if (suspect.sleep_schedule) {
        $("field-sleep").value = suspect.sleep_schedule.sleep;
        $("field-wake").value = suspect.sleep_schedule.wake;
      }
      break;
    default:
      break;
  }
}

function showConflict(field, yours, failure) {
  const current = "current" in failure ? failure.current : undefined;
  const box = el("div", { className: "conflict" }, [
    el("p", { text: failure.message || "This value was changed meanwhile; your edit was not saved." }),
    el("p", { text: `Now stored: ${formatValue(field, current)}.` }),
    el("p", { text: `Yours: ${formatValue(field, "yours" in failure ? failure.yours : yours)}.` }),
  ]);
  const actions = el("div", { className: "conflict-actions" });
  actions.append(
    button("Keep the stored value", async () => {
      state.editBase.delete(field);
      setFieldError(field, null);
      await reloadSelected(true);
    }),
    button("Save mine over it", () => {
      state.editBase.delete(field);
      saveField(field, yours, current);
    }),
  );
  box.append(actions);
  setFieldError(field, box);
}

async function reloadSelected(force) {
  if (state.selectedId === null) return;
  try {
    const suspect = await read(`/api/suspects/${state.selectedId}`);
    state.selected = suspect;
    renderInspector(Boolean(force));
    replaceRow(suspect);
  } catch (error) {
    if (error instanceof APIError && error.status === 404) {
      state.selected = null;
      state.selectedId = null;
      renderInspector(true);
      clear($("history-list"));
      saveURL();
    } else handleReadError(error);
  }
}

function rememberBase(field) {
  if (state.selected && !state.editBase.has(field)) state.editBase.set(field, state.selected[field]);
}

function setupInspectorForm() {
  const form = $("inspector-form");
  form.addEventListener("submit", (event) => event.preventDefault());
  // Escape goes back to the table, on the selected row.
  $("inspector").addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.target.tagName === "SELECT") return;
    const row = $("suspect-rows").querySelector(`tr[data-id="${state.selectedId}"]`);
    if (row) {
      event.preventDefault();
      row.focus();
    }
  });
  for (const control of form.querySelectorAll("[data-field]")) {
    const field = control.dataset.field;
    control.addEventListener("focus", () => rememberBase(field));
    control.addEventListener("input", () => rememberBase(field));
  }
  for (const id of ["field-name", "field-species", "field-emoji", "field-alibi"]) {
    const control = $(id);
    control.addEventListener("change", () => saveField(control.dataset.field, controlValue(control.dataset.field)));
    control.addEventListener("blur", () => {
      if (sameValue(controlValue(control.dataset.field), state.editBase.get(control.dataset.field))) state.editBase.delete(control.dataset.field);
    });
  }
  $("field-paw").addEventListener("change", () => saveField("paw_size", controlValue("paw_size")));
  for (const id of ["field-sleep", "field-wake"]) {
    $(id).addEventListener("change", () => {
      if ($("field-sleep").value && $("field-wake").value) saveSoon("sleep_schedule", 800);
    });
    $(id).addEventListener("blur", () => flushSave("sleep_schedule"));
  }
  $("sleep-add").addEventListener("click", () => saveField("sleep_schedule", { ...NEW_SLEEP_SCHEDULE }));
  $("sleep-remove").addEventListener("click", () => saveField("sleep_schedule", null));
  const level = $("field-level");
  level.addEventListener("input", () => showLevelLabel(Number(level.value)));
  level.addEventListener("change", () => saveSoon("suspicion_level", 500));
  level.addEventListener("blur", () => flushSave("suspicion_level"));
}

// MARK: - History and undo

function changeInWords(change) {
  const before = change.before || {};
  const after = change.after || {};
  const fruitName = (id) => {
    const fruit = state.fruitsById.get(id);
    return fruit ? fruit.name : `fruit #${id}`;
  };
  switch (change.table) {
    case "animals":
      if (change.operation === "insert") return `added ${after.name} the ${after.species}`;
      if (change.operation === "delete") return `removed ${before.name} the ${before.species}`;
      return Object.keys(after)
        .map((key) => `${key.replace(/_/g, " ")}: ${show(before[key])} \u2192 ${show(after[key])}`)
        .join("; ");
    case "favorite_fruits": {
      const key = change.key || {};
      const name = fruitName(key.fruit_id ?? after.fruit_id ?? before.fruit_id);
      // Positions are only an order (gaps allowed), so they are not shown as numbers.
      if (change.operation === "insert") return `favourite ${name} added`;
      if (change.operation === "delete") return `favourite ${name} removed`;
      return `favourite ${name} moved`;
    }
    case "alibis":
      if (change.operation === "delete") return "alibi cleared";
      return `alibi: ${show(after.statement)}`;
    case "sleep_schedules":
      if (change.operation === "delete") return "sleep schedule removed";
      if (change.operation === "insert") return `sleep schedule added: asleep ${after.sleep_at}, awake ${after.wake_at}`;
      return `sleep schedule: asleep ${after.sleep_at ?? before.sleep_at}, awake ${after.wake_at ?? before.wake_at}`;
    case "suspicion_levels":
      if (change.operation === "delete") return "suspicion level reset to 0";
      return `suspicion level ${before.level !== undefined ? `${formatLevel(before.level)} \u2192 ` : ""}${formatLevel(after.level)}`;
    default:
      return `${change.table}: ${change.operation}`;
  }
}

function show(value) {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return `\u201C${value}\u201D`;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

async function loadHistory() {
  const list = $("history-list");
  const status = $("history-status");
  if (state.selectedId === null) {
    clear(list);
    return;
  }
  const id = state.selectedId;
  try {
    const sets = await read("/api/history", { suspect: id, limit: 20 });
    if (id !== state.selectedId) return;
    clear(list);
    status.textContent = sets.length ? "" : "No recorded changes.";
    for (const set of sets) list.append(historyEntry(set));
  } catch (error) {
    status.textContent = errorText(error);
  }
}

function historyEntry(set) {
  const when = new Date(set.at);
  const whenText = Number.isNaN(when.getTime()) ? set.at : when.toLocaleString();
  const item = el("li", { className: "history-entry" });
  item.append(
    el("div", { className: "history-meta" }, [
      el("strong", { text: `#${set.id}` }),
      document.createTextNode(` \u00B7 ${whenText} \u00B7 ${set.actor || "another client"}`),
    ]),
  );
  if (set.note) item.append(el("div", { text: `Why: ${set.note}` }));
  const changes = el("ul");
  for (const change of set.changes || []) changes.append(el("li", { text: changeInWords(change) }));
  item.append(changes);
  const actions = el("div", { className: "history-actions" });
  const asOf = button("View the case then", () => setAsOf(String(set.id)));
  asOf.setAttribute("aria-label", `View the case as of change set ${set.id}`);
  actions.append(asOf);
  if (canWrite()) {
    const undo = button("Undo", () => undoChangeSet(set.id, item));
    undo.setAttribute("aria-label", `Undo change set ${set.id}`);
    actions.append(undo);
  }
  item.append(actions);
  const result = el("p", { className: "field-error", attrs: { "aria-live": "polite" } });
  item.append(result);
  return item;
}

async function undoChangeSet(id, item) {
  const result = item.querySelector(".field-error");
  result.textContent = "";
  try {
    const undone = await request("POST", "/api/undo", { change_set: id });
    await refreshAll();
    const status = $("history-status");
    if (undone && undone.change_set) status.textContent = `Change set #${id} undone by change set #${undone.change_set}.`;
    else status.textContent = `Change set #${id} had nothing left to undo.`;
  } catch (error) {
    result.textContent = errorText(error);
  }
}

// MARK: - The Fruit Nibble Bulletin and its ranking

function parseLocalTime(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text || "");
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number);
  return { year: y, month: mo, day: d, hour: h, minute: mi };
}

function clockText(time) {
  const hour12 = time.hour % 12 === 0 ? 12 : time.hour % 12;
  return `${hour12}:${String(time.minute).padStart(2, "0")} ${time.hour < 12 ? "AM" : "PM"}`;
}

function dateText(time) {
  const date = new Date(Date.UTC(time.year, time.month - 1, time.day));
  return date.toLocaleDateString(undefined, { timeZone: "UTC", weekday: "long", year: "numeric", month: "long", day: "numeric" });
}

async function loadIncidents() {
  try {
    const incidents = await read("/api/incidents");
    state.incidents = Array.isArray(incidents) ? incidents : [];
    if (!state.incidents.some((incident) => incident.id === state.incidentId)) {
      state.incidentId = state.incidents.length ? state.incidents[0].id : null;
    }
    renderBulletin();
  } catch (error) {
    handleReadError(error);
  }
}

function renderBulletin() {
  const body = $("bulletin-body");
  clear(body);
  const incident = state.incidents.find((i) => i.id === state.incidentId);
  if (!incident) {
    body.append(el("p", { text: "No fruit has been nibbled yet." }));
    return;
  }
  const fruitName = incident.fruit === null ? `a fruit that no longer exists (#${incident.fruit_id})` : incident.fruit;
  const time = parseLocalTime(incident.occurred_at);
  const story = el("div", { className: "bulletin-story" });
  const sentence =
    `${incident.fruit === null ? "A fruit" : `A ${fruitName.toLowerCase()}`} was nibbled! ` +
    (time ? `The bite happened at ${clockText(time)} on ${dateText(time)}.` : `The bite happened at ${incident.occurred_at}.`);
  story.append(fruitBadge(incident.fruit, true), el("p", { text: sentence }));
  body.append(el("p", { className: "hint", text: `Bulletin #${incident.id}${state.incidents[0] && state.incidents[0].id === incident.id ? ", the newest" : ""}` }), story);

  const clues = el("section", { className: "clues", attrs: { "aria-label": "Clues" } }, [el("h3", { text: "Clues" })]);
  const list = el("dl");
  const clue = (name, value) => list.append(el("dt", { text: name }), el("dd", { text: value }));
  clue("Paw Size", incident.paw_size ? capitalized(incident.paw_size) : "Unknown");
  clue("Favourite Fruit", incident.fruit === null ? "Unknown" : incident.fruit);
  clue("Alibi", "None");
  if (time) clue("Awake at", clockText(time));
  clues.append(list);
  body.append(clues);

  const place = el("div", { className: "bulletin-place" });
  const fruit = incident.fruit === null ? null : state.fruitsByName.get(incident.fruit.toLowerCase());
  const swatch = el("div", { className: "swatch", attrs: { role: "img", "aria-label": `colour ${fruit ? fruit.color : "unknown"}` } });
  const color = fruit ? cssColor(fruit.color) : null;
  if (color) swatch.style.backgroundColor = color;
  place.append(
    el("figure", { className: "swatch-figure" }, [
      swatch,
      el("figcaption", { className: "swatch-caption", text: fruit ? `What was left behind: ${fruit.color}` : "Colour unknown" }),
    ]),
  );
  const where = el("div", { className: "place" });
  if (typeof incident.latitude === "number" && typeof incident.longitude === "number") {
    const lat = incident.latitude;
    const lon = incident.longitude;
    where.append(el("p", { text: `Where: ${lat.toFixed(6)}, ${lon.toFixed(6)}` }));
    const link = el("a", {
      text: "Open in OpenStreetMap",
      attrs: {
        href: `https://www.openstreetmap.org/?mlat=${encodeURIComponent(lat)}&mlon=${encodeURIComponent(lon)}#map=19/${encodeURIComponent(lat)}/${encodeURIComponent(lon)}`,
        rel: "noopener noreferrer",
        target: "_blank",
      },
    });
    where.append(el("p", {}, [link]));
  } else {
    where.append(el("p", { text: "Where: not recorded" }));
  }
  place.append(where);
  body.append(place);
  if (incident.notes) body.append(el("p", { className: "bulletin-notes", text: incident.notes }));

  const ranking = el("section", { className: "ranking", attrs: { "aria-labelledby": "ranking-title" } });
  const head = el("div", { className: "panel-head" }, [el("h3", { text: "Top suspects", attrs: { id: "ranking-title" } })]);
  const explain = button(state.explain ? "Hide the clues' verdicts" : "Show each clue's verdict", () => {
    state.explain = !state.explain;
    renderBulletin();
  });
  explain.setAttribute("aria-pressed", state.explain ? "true" : "false");
  head.append(explain);
  ranking.append(head, el("ol", { attrs: { id: "ranking-list" } }));
  body.append(ranking);

  const others = state.incidents.filter((i) => i.id !== incident.id);
  if (others.length) {
    const section = el("section", { className: "other-incidents" }, [el("h3", { text: "Other bulletins" })]);
    const ul = el("ul");
    for (const other of others) {
      const t = parseLocalTime(other.occurred_at);
      const label = `#${other.id}: ${other.fruit === null ? "a missing fruit" : other.fruit}, ${t ? `${dateText(t)} ${clockText(t)}` : other.occurred_at}`;
      ul.append(el("li", {}, [button(label, () => showIncident(other.id), "link-button")]));
    }
    section.append(ul);
    body.append(section);
  }
  refreshRanking();
}

function showIncident(id) {
  state.incidentId = id;
  renderBulletin();
  $("bulletin").scrollIntoView({ block: "start" });
}

async function refreshRanking() {
  const list = $("ranking-list");
  if (!list || state.incidentId === null) return;
  const id = state.incidentId;
  try {
    const rows = await read(`/api/incidents/${id}/ranking`, { limit: 10 });
    if (id !== state.incidentId) return;
    clear(list);
    for (const row of rows) {
      const item = el("li");
      const who = button(`${row.emoji ? `${row.emoji} ` : ""}${suspectTitle(row)}`, () => selectSuspectById(row.id), "link-button");
      item.append(who, document.createTextNode(` \u2014 ${row.clues_matched} of ${row.clues_checked} clues, `), levelCell(row.suspicion_level));
      if (state.explain && row.clues) {
        const verdicts = el("ul", { className: "verdicts", attrs: { "aria-label": `Clues for ${suspectTitle(row)}` } });
        for (const [clue, matched] of Object.entries(row.clues)) {
          verdicts.append(
            el("li", {
              className: matched ? "verdict-yes" : "verdict-no",
              text: `${matched ? "\u2713" : "\u2717"} ${CLUE_NAMES[clue] || clue}: ${matched ? "matches" : "does not match"}`,
            }),
          );
        }
        item.append(verdicts);
      }
      list.append(item);
    }
    if (!rows.length) list.append(el("li", { text: "No suspects." }));
  } catch (error) {
    clear(list);
    list.append(el("li", { text: errorText(error) }));
  }
}

// MARK: - Search

async function runSearch(text) {
  const panel = $("search-results");
  const list = $("search-list");
  clear(list);
  panel.hidden = false;
  if (!text.trim()) {
    list.append(el("li", { text: "Type a word to search for." }));
    return;
  }
  try {
    const hits = await read("/api/search", { q: text, limit: 20 });
    if (!hits.length) list.append(el("li", { text: "No matches." }));
    for (const hit of hits) {
      const item = el("li");
      item.append(el("span", { className: "search-kind", text: hit.kind }));
      const open =
        hit.kind === "incident"
          ? button(hit.subject, () => showIncident(hit.id), "link-button")
          : button(hit.subject, () => selectSuspectById(hit.id), "link-button");
      item.append(open, document.createTextNode(": "), markedSnippet(hit.snippet || ""));
      list.append(item);
    }
  } catch (error) {
    list.append(el("li", { text: errorText(error) }));
  }
}

/** The snippet with the words the search marked ([ and ]) in <mark>, built as text nodes. */
function markedSnippet(snippet) {
  const span = el("span");
  let rest = snippet;
  while (rest.length) {
    const open = rest.indexOf("[");
    const close = open >= 0 ? rest.indexOf("]", open + 1) : -1;
    if (open < 0 || close < 0) {
      span.append(document.createTextNode(rest));
      break;
    }
    if (open > 0) span.append(document.createTextNode(rest.slice(0, open)));
    span.append(el("mark", { text: rest.slice(open + 1, close) }));
    rest = rest.slice(close + 1);
  }
  return span;
}

// MARK: - As of a time or a change set

function setAsOf(value) {
  state.asOf = value || null;
  $("asof-time").value = value && value.includes("T") ? value : "";
  $("asof-set").value = value && !value.includes("T") ? value : "";
  const banner = $("asof-banner");
  document.body.classList.toggle("as-of", Boolean(state.asOf));
  if (state.asOf) {
    banner.textContent = `Showing the case as it stood ${state.asOf.includes("T") ? `at ${state.asOf.replace("T", " ")}` : `right after change set #${state.asOf}`}: read-only. Choose \u201CNow\u201D to return.`;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  state.editBase.clear();
  clearFieldErrors();
  saveURL();
  refreshAll(true);
}

// MARK: - Session

async function loadSession() {
  try {
    state.session = await request("GET", "/api/session");
  } catch (error) {
    state.session = { investigator: null, csrf_token: null, read_only: false, public_read: false };
  }
  renderSession();
}

function renderSession() {
  const session = state.session;
  const signedIn = Boolean(session.investigator);
  $("session-name").textContent = signedIn ? `Signed in as ${session.investigator}` : session.public_read ? "Reading without signing in" : "";
  $("sign-in-button").hidden = signedIn;
  $("sign-out-button").hidden = !signedIn;
  state.canRead = signedIn || Boolean(session.public_read);
  if (!state.canRead) showSignIn(true);
}

function showSignIn(shown) {
  $("sign-in-panel").hidden = !shown;
  if (shown) $("token-input").focus();
}

async function signIn(token) {
  $("sign-in-error").textContent = "";
  try {
    state.session = await request("POST", "/api/session", { token });
    $("token-input").value = "";
    showSignIn(false);
    renderSession();
    startEvents();
    await loadEverything();
  } catch (error) {
    $("sign-in-error").textContent = error.status === 401 ? "That token is not valid." : errorText(error);
  }
}

async function signOut() {
  try {
    await request("DELETE", "/api/session");
  } catch (error) {
    showPageError(error);
  }
  await loadSession();
  if (!state.canRead) {
    stopEvents();
    state.rows = [];
    state.selected = null;
    state.selectedId = null;
    renderRows();
    renderInspector(true);
    updateTableEnd();
  } else {
    refreshAll();
  }
}

function handleReadError(error) {
  if (error instanceof APIError && error.status === 401) {
    loadSession();
    showSignIn(true);
    return;
  }
  showPageError(error);
}

// MARK: - Live changes

function startEvents() {
  if (state.events || !state.canRead || !window.EventSource) return;
  const status = $("live-status");
  const source = new EventSource("/api/events");
  state.events = source;
  source.addEventListener("open", () => {
    status.textContent = "Live";
    status.className = "live-status live";
  });
  source.addEventListener("change", () => scheduleRefresh());
  source.addEventListener("error", () => {
    status.textContent = "Reconnecting…";
    status.className = "live-status offline";
  });
}

function stopEvents() {
  if (state.events) state.events.close();
  state.events = null;
  $("live-status").textContent = "Offline";
  $("live-status").className = "live-status offline";
}

let refreshTimer = null;
function scheduleRefresh() {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    refreshAll();
  }, 100);
}

/** Reads again everything shown; `force` also overwrites the field being edited (a new time shown). */
async function refreshAll(force) {
  if (!state.canRead) return;
  await Promise.all([refreshSuspects(), reloadSelectedQuietly(Boolean(force)), loadIncidents()]);
  await loadHistory();
}

async function reloadSelectedQuietly(force) {
  if (state.selectedId !== null) await reloadSelected(force);
  else renderInspector(force);
}

// MARK: - Start

async function loadFruits() {
  try {
    const fruits = await read("/api/fruits");
    state.fruits = Array.isArray(fruits) ? fruits : [];
    state.fruitsByName = new Map(state.fruits.map((f) => [f.name.toLowerCase(), f]));
    state.fruitsById = new Map(state.fruits.map((f) => [f.id, f]));
    fillFruitFilter();
  } catch (error) {
    handleReadError(error);
  }
}

async function loadEverything() {
  if (!state.canRead) return;
  await loadFruits();
  await Promise.all([loadSuspects(true), loadIncidents()]);
  if (state.selectedId !== null) {
    const row = state.rows.find((r) => r.id === state.selectedId);
    if (row) selectSuspect(row);
    else await reloadSelected(true).then(() => loadHistory());
  }
}

function setupTable() {
  const body = $("suspect-rows");
  body.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-id]");
    if (row) selectRow(row, true);
  });
  body.addEventListener("dblclick", () => {
    setInspectorShown(true);
    focusInspector();
  });
  body.addEventListener("keydown", onTableKey);
  document.querySelector("#suspect-table thead").addEventListener("click", onSortHeader);
  $("load-more").addEventListener("click", () => loadSuspects(false));
  if (window.IntersectionObserver) {
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadSuspects(false);
      },
      { root: null, rootMargin: "200px" },
    );
    observer.observe($("table-end"));
  }
  $("table-scroll").addEventListener("scroll", () => {
    const scroller = $("table-scroll");
    if (scroller.scrollTop + scroller.clientHeight > scroller.scrollHeight - 200) loadSuspects(false);
  });
}

function setupToolbar() {
  $("toggle-inspector").addEventListener("click", () => setInspectorShown(!inspectorShown()));
  // Always opens the form (it may be open already when reading needs a sign-in); Cancel closes it.
  $("sign-in-button").addEventListener("click", () => showSignIn(true));
  $("sign-in-cancel").addEventListener("click", () => showSignIn(false));
  $("sign-out-button").addEventListener("click", signOut);
  $("sign-in-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signIn($("token-input").value.trim());
  });
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runSearch($("search-text").value);
  });
  $("search-close").addEventListener("click", () => {
    $("search-results").hidden = true;
    $("search-text").focus();
  });
  $("asof-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const set = $("asof-set").value.trim();
    const time = $("asof-time").value;
    setAsOf(set || time || null);
  });
  $("asof-clear").addEventListener("click", () => setAsOf(null));
  $("filter-form").addEventListener("submit", (event) => {
    event.preventDefault();
    readFilterForm();
    saveURL();
    loadSuspects(true);
  });
  for (const id of ["filter-paw", "filter-fruit", "sort-select", "order-select"]) {
    $(id).addEventListener("change", () => {
      readFilterForm();
      saveURL();
      loadSuspects(true);
    });
  }
  $("filter-reset").addEventListener("click", () => {
    state.filters = { name: "", species: "", paw_size: "", fruit: "", level_min: "", level_max: "" };
    writeFilterForm();
    saveURL();
    loadSuspects(true);
  });
}

/** Compact screens start with the search, time and filter controls folded away. */
function setupCollapsibles() {
  const apply = () => {
    for (const id of ["tools-box", "filters-box"]) {
      if (COMPACT.matches) $(id).removeAttribute("open");
      else $(id).setAttribute("open", "");
    }
  };
  apply();
  COMPACT.addEventListener("change", apply);
}

async function start() {
  setupCollapsibles();
  $("inspector").setAttribute("tabindex", "-1");
  loadURL();
  writeFilterForm();
  setupResizer();
  setupSheet();
  setInspectorShown(localStorage.getItem(SHOWN_KEY) !== "0");
  setupTable();
  setupToolbar();
  setupInspectorForm();
  renderInspector(true);
  if (state.asOf) setAsOf(state.asOf);
  await loadSession();
  if (state.canRead) {
    startEvents();
    await loadEverything();
  } else {
    $("live-status").textContent = "Offline";
  }
}

start();
