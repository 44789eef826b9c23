// Live updates: one server-sent-events stream per page. When the event's log moves past the
// version this page shows, wait a random 0.3–2.5 s (so a hall of phones does not ask at the
// same instant), then fetch the page again and swap its <main>. Without JavaScript the page
// still works; it just does not update by itself.
(function () {
  var body = document.body;
  var ev = body.getAttribute("data-event");
  if (!ev || !window.EventSource) return;
  var seq = parseInt(body.getAttribute("data-seq") || "0", 10);
  var pending = false;
  var status = document.getElementById("live");
  function reload() {
    pending = false;
    fetch(location.href, { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) {
      if (!html) return;
      var doc = new DOMParser().parseFromString(html, "text/html");
      var main = doc.getElementById("main");
      var now = parseInt(doc.body.getAttribute("data-seq") || "0", 10);
      if (main && now >= seq) {
        document.getElementById("main").innerHTML = main.innerHTML;
        seq = now;
        body.setAttribute("data-seq", String(now));
        document.dispatchEvent(new Event("arbiter:updated"));
      }
    }).catch(function () {});
  }
  function connect() {
    var es = new EventSource("/e/" + encodeURIComponent(ev) + "/live");
    es.addEventListener("change", function (m) {
      var c;
      try { c = JSON.parse(m.data); } catch (e) { return; }
      if (c.last_seq > seq && !pending) {
        pending = true;
        setTimeout(reload, 300 + Math.random() * 2200);
      }
    });
    es.onopen = function () { if (status) status.classList.remove("off"); };
    es.onerror = function () { if (status) status.classList.add("off"); };
  }
  connect();
})();
