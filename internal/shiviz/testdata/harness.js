// Opens logs as ShiViz's file input does, with ShiViz's own parser and
// model (the files in shiviz/, from DistributedClocks/shiviz at
// ea00d3d, MIT licence), and prints what ShiViz built for each, or the
// error it shows. Run by shiviz_test.go: node harness.js LOG...
//
// The file input's rules (js/shiviz.js): the first line, between ^ and $,
// is the parsing expression; the second, trimmed, the delimiter of
// executions (none when blank); the log is the rest. Each execution is
// then a ModelGraph, which checks every vector clock. With --link first,
// the parsing expression is taken as written, not between ^ and $, as
// ShiViz's example links (index.html's data-parser) give it.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const files = ["exception.js", "util.js", "regexp.js", "graphEvent.js", "abstractNode.js", "abstractGraph.js",
  "logEvent.js", "vectorTimestamp.js", "modelNode.js", "modelGraph.js", "parser.js"];
const context = vm.createContext({ console });
for (const f of files) {
  vm.runInContext(fs.readFileSync(path.join(__dirname, "shiviz", f), "utf8"), context, { filename: f });
}

const asLink = process.argv[2] === "--link";
const open = vm.runInContext(`(function (text, asLink) {
  const lines = text.split("\\n", 2);
  const parser = asLink ? lines[0] : lines[0].trim() ? "^" + lines[0] + "$" : "";
  const delimiterString = lines[1].trim() ? "^" + lines[1].trim() + "$" : "";
  const startOfLog = text.indexOf("\\n", text.indexOf("\\n") + 1);
  const log = text.substr(startOfLog + 1);
  // Shiviz.prototype.visualize
  const delimiter = delimiterString == "" ? null : new NamedRegExp(delimiterString, "m");
  const regexp = new NamedRegExp(parser.trim(), "m");
  const logParser = new LogParser(log, delimiter, regexp);
  return logParser.getLabels().map((label) => {
    const graph = new ModelGraph(logParser.getLogEvents(label));
    const hosts = {};
    const edges = [];
    for (const host of graph.getHosts()) {
      const events = [];
      for (let n = graph.getHead(host).getNext(); !n.isTail(); n = n.getNext()) {
        const e = n.getFirstLogEvent();
        events.push({ text: e.getText(), clock: e.getVectorTimestamp().getOwnTime() });
        for (const child of n.getChildren()) {
          edges.push([host, e.getVectorTimestamp().getOwnTime(), child.getHost(), child.getFirstLogEvent().getVectorTimestamp().getOwnTime()]);
        }
      }
      hosts[host] = events;
    }
    return { label, hosts, edges };
  });
})`, context);

const out = {};
for (const file of process.argv.slice(asLink ? 3 : 2)) {
  try {
    out[file] = { executions: open(fs.readFileSync(file, "utf8"), asLink) };
  } catch (e) {
    out[file] = { error: e && e.getMessage ? e.getMessage() : String(e && e.stack || e) };
  }
}
process.stdout.write(JSON.stringify(out));
