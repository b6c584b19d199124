// The API page: every operation of /openapi.json with its summary, request and response models (the package's
// own few lines instead of Swagger UI, which loads from a CDN).
"use strict";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function refName(schema) {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.anyOf) return schema.anyOf.map(refName).join(" | ");
  if (schema.type === "array") return `${refName(schema.items)}[]`;
  return schema.type || "";
}

document.addEventListener("DOMContentLoaded", async () => {
  const main = document.getElementById("api");
  const spec = await (await fetch("/openapi.json")).json();
  main.replaceChildren(el("p", null, spec.info.description));
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const block = el("section", "document");
      block.append(el("h2", null, `${method.toUpperCase()} ${path}`), el("p", null, op.summary || ""));
      const body = op.requestBody && op.requestBody.content["application/json"];
      if (body) block.append(el("p", null, `request: ${refName(body.schema)}`));
      for (const [code, response] of Object.entries(op.responses || {})) {
        const json = response.content && response.content["application/json"];
        block.append(el("p", "muted", `${code} ${response.description || ""} ${json ? refName(json.schema) : ""}`));
      }
      main.append(block);
    }
  }
  const models = el("section", "document");
  models.append(el("h2", null, "models"));
  for (const [name, schema] of Object.entries(spec.components.schemas)) {
    models.append(el("h3", null, name), el("p", "muted", schema.description || ""));
    const list = el("ul");
    for (const [field, value] of Object.entries(schema.properties || {})) {
      list.append(el("li", null, `${field}: ${refName(value)}${value.description ? " — " + value.description : ""}`));
    }
    models.append(list);
  }
  main.append(models);
});
