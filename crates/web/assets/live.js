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
  // The stream is closed when the page is hidden (it may be kept in the browser's
  // back/forward cache: an open stream there holds one of the six connections a browser
  // allows per host, and after six such pages the next page load stalls) and opened again
  // when the page is shown; a page restored from the cache then catches up on its own.
  // The server ends every stream after a while (its lifetime, or idle without a change):
  // EventSource then opens it again by itself, after the pause the server's "retry" says.
  // A stream refused (503: the server's streams are full) is not retried by EventSource:
  // this page tries again after 30–90 s.
  var es = null;
  var shown = true;
  var again = null;
  function disconnect() {
    shown = false;
    if (again) {
      clearTimeout(again);
      again = null;
    }
    if (es) {
      es.close();
      es = null;
    }
    body.setAttribute("data-live", "closed");
  }
  function connect() {
    shown = true;
    if (es) return;
    body.setAttribute("data-live", "connecting");
    var mine = new EventSource("/e/" + encodeURIComponent(ev) + "/live");
    es = mine;
    es.addEventListener("change", function (m) {
      var c;
      try { c = JSON.parse(m.data); } catch (e) { return; }
      if (c.last_seq > seq && !pending) {
        pending = true;
        setTimeout(reload, 300 + Math.random() * 2200);
      }
    });
    es.onopen = function () {
      body.setAttribute("data-live", "open");
      if (status) status.classList.remove("off");
    };
    es.onerror = function () {
      body.setAttribute("data-live", "error");
      if (status) status.classList.add("off");
      if (es === mine && mine.readyState === EventSource.CLOSED && !again) {
        es = null;
        again = setTimeout(function () {
          again = null;
          if (shown) connect();
        }, 30000 + Math.random() * 60000);
      }
    };
  }
  window.addEventListener("pagehide", disconnect);
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) {
      body.setAttribute("data-restored", "1");
      connect();
    }
  });
  connect();
})();
