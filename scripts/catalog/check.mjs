// scripts/catalog/check.mjs — checks built contract catalogs in headless
// Chromium (scripts/catalog.sh runs it):
//
//   node check.mjs SHOTS NAME=DIR...
//
// For each site DIR: opens every page, following every link from index.html
// (a link to a missing file is broken), with no console error, page error or
// failed request; runs axe-core (no serious or critical violation) on every
// page of the site named by ACEMQ_CATALOG_THOROUGH and on the first page of
// each kind (index, domain, message, type, service) of the others, all
// rendered by the same templates; on each domain page checks that the topology SVG names every
// queue its queue table lists; searches the index for a field name and
// follows the first result to a message whose payload holds that field; and
// saves screenshots of the index and the search result (and of the domain
// pages of the thorough site) into SHOTS/NAME/.
// Prints one line per problem and exits 1 when there is any.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const modules = process.env.ACEMQ_CATALOG_MODULES;
if (!modules) { console.error("check.mjs: set ACEMQ_CATALOG_MODULES to the node_modules directory"); process.exit(2); }
const require = createRequire(path.join(modules, "x.js"));
const puppeteer = require("puppeteer-core");
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const [shots, ...sites] = process.argv.slice(2);
const problems = [];
const problem = (site, msg) => problems.push(`${site}: ${msg}`);
let pagesOpened = 0, linksFollowed = 0;

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"],
});
try {
  for (const arg of sites) {
    const [name, dir] = arg.split("=");
    await checkSite(name, path.resolve(dir));
  }
} finally {
  await browser.close();
}
for (const p of problems) { console.log(p); }
console.log(`catalog-check: ${sites.length} sites, ${pagesOpened} pages, ${linksFollowed} links followed; ${problems.length} problems`);
process.exit(problems.length === 0 ? 0 : 1);

async function checkSite(name, dir) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") { errors.push(m.text()); } });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
  const seen = new Set(), queue = ["index.html"], axed = new Set();
  const thorough = name === process.env.ACEMQ_CATALOG_THOROUGH; // axe on every page, screenshots of every domain
  while (queue.length > 0) {
    const rel = queue.shift();
    if (seen.has(rel)) { continue; }
    seen.add(rel);
    errors.length = 0;
    await page.goto(pathToFileURL(path.join(dir, rel)).href, { waitUntil: "load" });
    pagesOpened++;
    for (const target of await linksOf(page, dir, name, rel)) {
      if (target.endsWith(".html") && !seen.has(target)) { queue.push(target); }
    }
    const template = rel.split("/")[0]; // index.html, domains, messages, types or services
    if (thorough || !axed.has(template)) {
      axed.add(template);
      await axe(page, name, rel);
    }
    if (rel.startsWith("domains/")) {
      await topology(page, name, rel);
      if (thorough) { await page.screenshot({ path: shot(name, rel), fullPage: true }); }
    }
    for (const e of errors) { problem(name, `${rel}: console: ${e}`); }
  }
  for (const f of htmlFiles(dir)) {
    if (!seen.has(f)) { problem(name, `${f} is reached by no link`); }
  }
  await search(page, dir, name);
  await page.close();
}

// linksOf is every file link of the open page, relative to the site; a
// missing target is a problem.
async function linksOf(page, dir, name, rel) {
  const urls = await page.$$eval("a[href], link[href], script[src]", (els) => els.map((e) => e.href || e.src));
  const out = [];
  for (const u of urls) {
    if (!u.startsWith("file:")) { continue; }
    linksFollowed++;
    const file = fileURLToPath(u.split("#")[0]);
    if (!fs.existsSync(file)) { problem(name, `${rel}: broken link to ${path.relative(dir, file)}`); continue; }
    out.push(path.relative(dir, file).split(path.sep).join("/"));
  }
  return out;
}

async function axe(page, name, rel) {
  await page.evaluate(axeSource);
  const res = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  for (const v of res.violations) {
    if (v.impact === "serious" || v.impact === "critical") {
      problem(name, `${rel}: axe ${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes: ${v.nodes.slice(0, 2).map((n) => n.target.join(" ")).join("; ")})`);
    }
  }
}

// topology checks that the diagram names every queue the queue table lists.
async function topology(page, name, rel) {
  const { queues, texts, hasSvg } = await page.evaluate(() => ({
    queues: [...document.querySelectorAll("[data-queue]")].map((e) => e.dataset.queue),
    texts: [...document.querySelectorAll("svg.topology text")].map((t) => t.textContent),
    hasSvg: document.querySelector('svg.topology[role="img"][aria-label]') !== null,
  }));
  if (queues.length > 0 && !hasSvg) { problem(name, `${rel}: no topology image with role="img" and an aria-label`); }
  for (const q of queues) {
    if (!texts.some((t) => t.endsWith(" " + q))) { problem(name, `${rel}: the topology does not show queue ${q}`); }
  }
}

// search types a field name into the index's search and follows the first
// result to the message whose payload has it.
async function search(page, dir, name) {
  await page.goto(pathToFileURL(path.join(dir, "index.html")).href, { waitUntil: "load" });
  await page.screenshot({ path: shot(name, "index.html"), fullPage: false });
  const entry = await page.evaluate(() => (window.ACEMQ_CATALOG || []).find((e) => e.fields.length > 0));
  if (!entry) { return; }
  const field = entry.fields[entry.fields.length - 1];
  await page.type("#search", field);
  await page.waitForSelector("#results li a", { timeout: 5000 }).catch(() => null);
  const links = await page.$$("#results li");
  let first = null;
  for (const li of links) {
    const why = await li.$eval("small", (s) => s.textContent).catch(() => "");
    if (why.endsWith(" by field " + field)) { first = await li.$("a"); break; }
  }
  if (!first) { problem(name, `searching for field ${field} lists no message by that field`); return; }
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), first.click()]);
  const fields = await page.$$eval("section table tbody th code", (els) => els.map((e) => e.textContent));
  if (!fields.includes(field)) { problem(name, `searching for field ${field} lands on ${page.url()}, which has no such field`); }
  await page.screenshot({ path: shot(name, "search-result.html"), fullPage: false });
}

function shot(name, rel) {
  const file = path.join(shots, name, rel.replace(/\//g, "_").replace(/\.html$/, ".png"));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

function htmlFiles(dir, sub = "") {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (e.isDirectory()) { out.push(...htmlFiles(dir, rel)); } else if (rel.endsWith(".html")) { out.push(rel); }
  }
  return out;
}
