// The result-entry grid, keyboard first: type the board number, Enter, then one key for
// the result (1 red wins, 0 black wins, 5 or = draw, f black forfeits, F red forfeits,
// d both forfeit; r / b add a red / black foul first; Esc starts again). The entry is sent
// at once and the page is not reloaded. Without this script the same form posts normally.
(function () {
  "use strict";
  var form = document.getElementById("entry");
  if (!form || !window.fetch) return;
  var board = document.getElementById("board");
  var result = document.getElementById("result");
  var fr = document.getElementById("fouls_red");
  var fb = document.getElementById("fouls_black");
  var answer = document.getElementById("answer");
  var progress = document.getElementById("progress");
  var keys = { "1": "1-0", "0": "0-1", "5": "=", "=": "=", "f": "+-", "F": "-+", "d": "--" };
  var waiting = false;

  function say(ok, text) {
    answer.hidden = false;
    answer.textContent = text;
    answer.className = "flash " + (ok ? "ok" : "err");
  }

  function reset() {
    waiting = false;
    form.classList.remove("waiting");
    fr.value = "0";
    fb.value = "0";
    board.value = "";
    board.focus();
  }

  function send() {
    var body = new URLSearchParams(new FormData(form));
    fetch(form.action, {
      method: "POST",
      headers: { "Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
      credentials: "same-origin"
    }).then(function (r) {
      return r.json();
    }).then(function (a) {
      say(a.ok, a.message);
      if (a.board) {
        var row = document.querySelector('#sheet tr[data-board="' + a.board + '"] .res');
        if (row) row.textContent = a.stored || "";
      }
      if (progress && a.total) {
        var b = progress.querySelector("b");
        if (b) b.textContent = a.entered + " / " + a.total;
      }
      reset();
    }).catch(function () {
      say(false, "网络错误, 未能确认是否录入, 请刷新页面查看 (network error; reload to see what was stored)");
      reset();
    });
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!board.value.trim()) { board.focus(); return; }
    send();
  });

  board.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") {
      ev.preventDefault();
      if (!board.value.trim()) return;
      waiting = true;
      form.classList.add("waiting");
      say(true, "第" + board.value.trim() + "台: 按成绩键 (press the result key)");
      board.blur();
    }
  });

  document.addEventListener("keydown", function (ev) {
    if (!waiting || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape") { ev.preventDefault(); answer.hidden = true; reset(); return; }
    if (ev.key === "r") { ev.preventDefault(); fr.value = String(+fr.value + 1); say(true, "红方犯规 " + fr.value); return; }
    if (ev.key === "b") { ev.preventDefault(); fb.value = String(+fb.value + 1); say(true, "黑方犯规 " + fb.value); return; }
    var r = keys[ev.key];
    if (r) {
      ev.preventDefault();
      result.value = r;
      waiting = false;
      send();
    }
  });
})();

// New event: choosing a bundled regulation fills in this edition's dates (the regulation's
// moved to this year, from the option's data-*); the arbiter corrects them before creating.
(function () {
  "use strict";
  var sel = document.querySelector("form[action='/desk/events'] select[name=preset]");
  if (!sel) return;
  sel.addEventListener("change", function () {
    var o = sel.options[sel.selectedIndex];
    ["name", "start", "end", "deadline", "age_on"].forEach(function (k) {
      var f = sel.form.elements[k];
      if (f) f.value = (o && o.getAttribute("data-" + k.replace("_", "-"))) || "";
    });
  });
})();
