// The catalog's search: filters window.ACEMQ_CATALOG (assets/search-index.js)
// by message name, field name and header name, and lists the matches as links.
(function () {
  "use strict";
  var input = document.getElementById("search");
  var results = document.getElementById("results");
  var entries = window.ACEMQ_CATALOG || [];
  if (!input || !results) { return; }

  function matches(e, q) {
    if (e.name.toLowerCase().indexOf(q) >= 0) { return "name"; }
    var i;
    for (i = 0; i < e.fields.length; i++) {
      if (e.fields[i].toLowerCase().indexOf(q) >= 0) { return "field " + e.fields[i]; }
    }
    for (i = 0; i < e.headers.length; i++) {
      if (e.headers[i].toLowerCase().indexOf(q) >= 0) { return "header " + e.headers[i]; }
    }
    return "";
  }

  function render() {
    var q = input.value.trim().toLowerCase();
    results.textContent = "";
    if (q === "") { return; }
    entries.forEach(function (e) {
      var why = matches(e, q);
      if (!why) { return; }
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = e.url;
      a.textContent = e.name;
      var small = document.createElement("small");
      small.textContent = " " + e.kind + " in " + e.domain + ", by " + why;
      li.appendChild(a);
      li.appendChild(small);
      results.appendChild(li);
    });
    if (!results.firstChild) {
      var none = document.createElement("li");
      none.textContent = "No message matches.";
      results.appendChild(none);
    }
  }

  input.addEventListener("input", render);
  render();
}());
