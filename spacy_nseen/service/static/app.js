// The curator's page: paste text (or a BioC file), see the entities (displaCy's style), each linked one a link to
// its entry, a panel with its candidates and organism evidence. Every text is put in the page as a text node
// (never as HTML), so a caption holding <script> shows as text.
"use strict";

const state = { info: null, urlTemplates: {}, organismNames: {}, request: null, response: null };

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function setStatus(text, isError) {
  const status = $("status");
  status.textContent = text;
  status.className = isError ? "error" : "muted";
}

function entryUrl(entity) {
  const template = state.urlTemplates[entity.label];
  if (!template || !entity.kb_id) return null;
  const url = template.replace("{}", encodeURI(entity.kb_id));
  return /^https?:\/\//.test(url) ? url : null;
}

function organismLabel(taxon) {
  if (taxon === null || taxon === undefined) return "none";
  const name = state.organismNames[taxon];
  return name ? `${name} (taxon ${taxon})` : `taxon ${taxon}`;
}

async function postJson(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) {
    let message = `${response.status}`;
    try { message += `: ${(await response.json()).error}`; } catch (err) { /* not JSON */ }
    throw new Error(message);
  }
  return response;
}

async function loadInfo() {
  for (let attempt = 0; attempt < 60; attempt++) {
    const response = await fetch("/v1/info");
    if (response.ok) {
      state.info = await response.json();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (!state.info) { $("pipeline-info").textContent = "the pipeline did not load"; return; }
  for (const set of state.info.reference_sets) {
    for (const label of set.labels) state.urlTemplates[label] = set.url_template;
  }
  const select = $("organism");
  for (const organism of state.info.organisms) {
    state.organismNames[organism.taxon] = organism.name;
    select.append(el("option", { value: String(organism.taxon) }, `${organism.name} (${organism.taxon})`));
  }
  const pipeline = state.info.pipeline;
  const sets = state.info.reference_sets.map((s) => `${s.name} (${s.labels.join(", ")})`).join("; ");
  $("pipeline-info").textContent = `pipeline ${pipeline.name} ${pipeline.version}: ${sets}`;
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

async function buildRequest() {
  const request = {};
  const file = $("bioc-file").files[0];
  if (file) {
    request.bioc = await readFile(file);
    request.article = true;
  } else {
    const text = $("text").value;
    if (!text.trim()) throw new Error("paste a text or choose a BioC file first");
    request.texts = [text];
  }
  const organism = $("organism").value;
  if (organism) request.organisms = [Number(organism)];
  return request;
}

async function annotate() {
  setStatus("linking…", false);
  try {
    state.request = await buildRequest();
    const response = await postJson("/v1/annotate", state.request);
    state.response = await response.json();
    render(state.response);
    const n = state.response.records.reduce((sum, r) => sum + r.entities.length, 0);
    const bad = state.response.bad_records.length;
    setStatus(`${n} entities in ${state.response.records.length} texts` + (bad ? `, ${bad} parts unreadable` : ""));
  } catch (err) {
    setStatus(err.message, true);
  }
}

function entityMark(entity, recordIndex, entityIndex) {
  const linked = Boolean(entity.kb_id);
  const unlinked = !linked && entity.kb_candidates !== null && entity.kb_candidates !== undefined;
  const classes = ["entity", entity.label.replace(/[^A-Za-z0-9_-]/g, "_")];
  if (unlinked) classes.push("unlinked");
  const mark = el("mark", {
    class: classes.join(" "), "data-record": String(recordIndex), "data-entity": String(entityIndex),
    tabindex: "0", title: linked ? entity.kb_id : (unlinked ? "not linked (no match)" : entity.label),
  });
  const url = entryUrl(entity);
  mark.append(url ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, entity.text)
    : el("span", {}, entity.text));
  const tag = el("span", { class: "entity-label" }, entity.label);
  if (linked) tag.append(" ", el("span", { class: "entity-id" }, entity.kb_id));
  else if (unlinked) tag.append(" ", el("span", { class: "entity-id" }, "unlinked"));
  mark.append(tag);
  mark.addEventListener("click", (event) => {
    if (event.target.tagName !== "A") showPanel(recordIndex, entityIndex);
  });
  mark.addEventListener("keydown", (event) => { if (event.key === "Enter") showPanel(recordIndex, entityIndex); });
  return mark;
}

function render(result) {
  const container = $("documents");
  container.replaceChildren();
  result.records.forEach((record, r) => {
    const block = el("div", { class: "document", "data-id": record.id });
    block.append(el("h3", {}, `${record.id}` + (record.organisms ? ` · organisms: ${record.organisms.map(organismLabel).join(", ")}` : "")));
    let position = 0;
    const entities = record.entities.map((e, i) => [e, i]).sort((a, b) => a[0].start - b[0].start);
    for (const [entity, i] of entities) {
      if (entity.start < position) continue;
      block.append(document.createTextNode(record.text.slice(position, entity.start)));
      block.append(entityMark(entity, r, i));
      position = entity.end;
    }
    block.append(document.createTextNode(record.text.slice(position)));
    container.append(block);
  });
  $("panel").replaceChildren(el("p", { class: "muted" }, "Select an entity to see its candidates."));
  $("result-area").hidden = false;
}

function showPanel(recordIndex, entityIndex) {
  const entity = state.response.records[recordIndex].entities[entityIndex];
  for (const mark of document.querySelectorAll("mark.selected")) mark.classList.remove("selected");
  const selected = document.querySelector(`mark[data-record="${recordIndex}"][data-entity="${entityIndex}"]`);
  if (selected) selected.classList.add("selected");
  const panel = $("panel");
  panel.replaceChildren();
  panel.append(el("h2", {}, entity.text), el("p", {}, `label ${entity.label}`));
  const url = entryUrl(entity);
  if (entity.kb_id) {
    const link = url ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, entity.kb_id) : entity.kb_id;
    panel.append(el("p", { class: "verdict-linked" }, "linked to ", link));
  } else if (entity.kb_candidates) {
    panel.append(el("p", { class: "verdict-nil" }, "not linked: no candidate passed the decision (NIL)"));
  } else {
    panel.append(el("p", { class: "muted" }, "this label is not linked by the pipeline"));
  }
  if (entity.kb_score !== null && entity.kb_score !== undefined) {
    panel.append(el("p", {}, `probability / score of the best candidate: ${entity.kb_score.toFixed(3)}`));
  }
  if (entity.kb_searched) panel.append(el("p", {}, `searched as: ${entity.kb_searched}`));
  if (entity.kb_taxon !== undefined && entity.kb_taxon !== null) {
    panel.append(el("p", { class: "organism" }, `organism: ${organismLabel(entity.kb_taxon)}`));
  }
  if (entity.kb_taxon_evidence && entity.kb_taxon_evidence.length) {
    const list = el("ul", { class: "evidence" });
    for (const line of entity.kb_taxon_evidence) list.append(el("li", {}, line));
    panel.append(el("p", {}, "evidence:"), list);
  }
  if (entity.kb_candidates && entity.kb_candidates.length) {
    const table = el("table", { class: "candidates" });
    table.append(el("tr", {}, el("th", {}, "#"), el("th", {}, "id"), el("th", {}, "name"), el("th", {}, "score")));
    entity.kb_candidates.forEach(([id, name, score], k) => {
      const candidateUrl = entryUrl({ label: entity.label, kb_id: id });
      const idCell = candidateUrl ? el("a", { href: candidateUrl, target: "_blank", rel: "noopener noreferrer" }, id) : id;
      table.append(el("tr", {}, el("td", {}, String(k + 1)), el("td", {}, idCell), el("td", {}, name),
        el("td", { class: "score" }, Number(score).toFixed(3))));
    });
    panel.append(el("h3", {}, "candidates"), table);
  }
  if (entity.kb_xrefs) {
    panel.append(el("p", { class: "muted" }, "cross-references: " +
      Object.entries(entity.kb_xrefs).map(([db, id]) => `${db} ${id}`).join(", ")));
  }
}

function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function downloadBioc() {
  try {
    const response = await postJson("/v1/annotate", { ...state.request, output: "bioc-xml" });
    download("annotations.bioc.xml", "application/xml", await response.text());
  } catch (err) {
    setStatus(err.message, true);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("annotate").addEventListener("click", annotate);
  $("organism").addEventListener("change", () => { if (state.response) annotate(); });
  $("download-json").addEventListener("click",
    () => download("annotations.json", "application/json", JSON.stringify(state.response, null, 2)));
  $("download-bioc").addEventListener("click", downloadBioc);
  loadInfo();
});
