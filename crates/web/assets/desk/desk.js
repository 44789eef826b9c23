// The result-entry grid, keyboard first: type the board number (in a team match also
// 「场次.台次」, 3.2; its row lights up with the players; a board the round does not have is refused at once), Enter, then one key for the
// result (1 red wins, 0 black wins, 5 or = draw, f black forfeits, F red forfeits, d both
// forfeit; r / b add a red / black foul first; Esc starts again). A board that has a result
// already is re-entered the same way before the slips are signed: the result shown on its
// row is sent as the one replaced, so two arbiters on one board still get a conflict. The
// entry is sent at once and the page is not reloaded. The chief arbiter's correction form
// takes the same keys. Without this script the same forms post normally.
(function () {
  "use strict";
  if (!window.fetch) return;
  // Chinese pages speak Chinese only; the English switch gives English (as the pages do).
  var en = /^en/.test(document.documentElement.lang || "");
  function t(zh, english) { return en ? english : zh; }
  var keys = { "1": "1-0", "0": "0-1", "5": "=", "=": "=", "f": "+-", "F": "-+", "d": "--" };
  var words = { "1-0": "红胜", "0-1": "黑胜", "=": "和棋", "+-": "黑方弃权 (红判胜)", "-+": "红方弃权 (黑判胜)", "--": "双方弃权" };
  var sheet = document.getElementById("sheet");
  var progress = document.getElementById("progress");
  var total = sheet ? sheet.querySelectorAll("tbody tr[data-board]").length : 0;

  function rowOf(n) {
    return sheet ? sheet.querySelector('tbody tr[data-board="' + n + '"]') : null;
  }
  function cellText(tr, i) {
    return tr && tr.cells[i] ? tr.cells[i].textContent.trim() : "";
  }
  // A team match's board typed as 「场次.台次」 (3.2, 3-2, 3．2): "3.2"; otherwise null.
  function matchBoard(v) {
    var m = /^([0-9]+)\s*[.\-．－]\s*([0-9]+)$/.exec(v);
    return m ? (+m[1]) + "." + (+m[2]) : null;
  }
  // Light up the row of the board typed in `input` and say who plays there in `line`;
  // returns the row, or null (then `line` says the board does not exist).
  function light(input, line) {
    var lit = sheet ? sheet.querySelectorAll("tr.current") : [];
    for (var i = 0; i < lit.length; i++) lit[i].classList.remove("current");
    var v = input.value.trim();
    if (!line) line = { hidden: true, textContent: "", className: "" };
    if (!v) { line.hidden = true; return null; }
    var mb = matchBoard(v);
    var tr = /^[0-9]+$/.test(v) ? rowOf(+v) : (mb && sheet ? sheet.querySelector('tbody tr[data-mb="' + mb + '"]') : null);
    line.hidden = false;
    if (!tr) {
      line.className = "current-board err";
      line.textContent = mb
        ? t("本轮没有第" + mb.replace(".", "场第") + "台", "No board " + mb + " in this round")
        : t("本轮没有第" + v + "台: 共 " + total + " 台", "No board " + v + " in this round (" + total + " boards)");
      return null;
    }
    tr.classList.add("current");
    if (tr.scrollIntoView) tr.scrollIntoView({ block: "nearest" });
    var stored = cellText(tr, 3);
    var at = tr.getAttribute("data-mb");
    line.className = "current-board";
    line.textContent = (at ? "第" + at.replace(".", "场第") + "台 (第" + tr.getAttribute("data-board") + "台)" : "第" + v + "台") +
      " · 红方 " + cellText(tr, 1) + " — 黑方 " + cellText(tr, 4) +
      (stored ? " · 现有成绩 " + stored + " (" + (words[stored] || stored) + ")" : "");
    return tr;
  }

  // The chief arbiter's correction form: the row lights up, the key is read back in words.
  var cBoard = document.getElementById("correct-board");
  var cResult = document.getElementById("correct-result");
  var cMeaning = document.getElementById("correct-meaning");
  if (cBoard && cResult) {
    var cLine = document.createElement("p");
    cLine.id = "correct-current";
    cLine.hidden = true;
    cBoard.parentNode.parentNode.insertBefore(cLine, cBoard.parentNode.nextSibling);
    cBoard.addEventListener("input", function () { light(cBoard, cLine); release(); });
    cResult.addEventListener("input", function () {
      var v = cResult.value.trim();
      var r = keys[v] || (words[v] ? v : null);
      if (cMeaning) cMeaning.textContent = v ? (r ? r + " " + words[r] : t("无法识别", "not a result key")) : "";
    });
  }

  // Live: a result another arbiter enters (or the chief arbiter corrects, or a foul decides)
  // fills in its row within seconds, without a reload. The event's public live stream says
  // only that the log moved on (its last entry's number); the grid then asks the desk for
  // the round's results now (`results.json`, a desk login) and fills in the rows that
  // differ, marked 「已由他人录入」. A row being typed in, waiting for its result key or being
  // sent is never overwritten: the conflict is said in words, and the row is filled in once
  // the arbiter lets it go. After a dropped connection (bad Wi-Fi, the page back from the
  // back/forward cache) the stream is opened again and the grid catches up the same way.
  var others = document.getElementById("others");
  var held = {};
  var sending = null;
  var news = [];
  function busy(tr) {
    return tr === sending || tr.classList.contains("current");
  }
  function tell(text) {
    if (!others) return;
    others.hidden = false;
    others.textContent = text;
  }
  function named(tr) {
    var at = tr.getAttribute("data-mb");
    return at ? t("第" + at.replace(".", "场第") + "台", "Board " + at) : t("第" + tr.getAttribute("data-board") + "台", "Board " + tr.getAttribute("data-board"));
  }
  function inWords(r) {
    return r ? r + " (" + (en ? r : (words[r] || r)) + ")" : t("无成绩", "no result");
  }
  // Fill in `tr` with `r`, stored by someone else.
  function fillIn(tr, r) {
    var old = cellText(tr, 3);
    var cell = tr.cells[3];
    cell.textContent = r;
    cell.setAttribute("data-note", t("已由他人录入", "entered by another arbiter"));
    tr.classList.remove("theirs");
    void tr.offsetWidth;
    tr.classList.add("theirs");
    tr.classList.remove("conflict");
    news.push(old
      ? named(tr) + t("已由他人改为 ", " changed by another arbiter to ") + inWords(r) + t(", 原成绩 ", ", was ") + old
      : named(tr) + t("已由他人录入: ", " entered by another arbiter: ") + inWords(r));
  }
  function told() {
    if (news.length) tell(news.join(t("; ", "; ")));
    news = [];
  }
  // The rows held while they were busy, now that they are not.
  function release() {
    for (var b in held) {
      var tr = rowOf(b);
      if (!tr || busy(tr)) continue;
      var r = held[b];
      delete held[b];
      tr.classList.remove("conflict");
      if (cellText(tr, 3) !== r) fillIn(tr, r);
    }
    told();
  }
  var progress0 = progress;
  var seq = progress0 ? +(progress0.getAttribute("data-seq") || "0") : 0;
  var conflictSay = null;
  function apply(now) {
    if (now.last_seq > seq) seq = now.last_seq;
    if (now.round !== +progress0.getAttribute("data-round")) {
      tell(now.round
        ? t("第" + now.round + "轮已编排, 请刷新页面", "Round " + now.round + " is paired: reload the page")
        : t("本轮编排已撤销, 请刷新页面", "This round's pairing was undone: reload the page"));
      return;
    }
    for (var i = 0; i < now.boards.length; i++) {
      var b = now.boards[i];
      var tr = rowOf(b.board);
      if (!tr) continue;
      var r = b.result || "";
      if (cellText(tr, 3) === r) { delete held[b.board]; tr.classList.remove("conflict"); continue; }
      if (busy(tr)) {
        if (held[b.board] !== r && tr !== sending && conflictSay) {
          conflictSay(named(tr) + t("刚由他人录入 ", " was just entered by another arbiter: ") + inWords(r) +
            t(", 与你正在输入的冲突: 你的成绩尚未发送, 本行未被覆盖. 按 Esc 放弃并查看; 如仍要改, 核对后重新输入台号.",
              ". It conflicts with what you are typing: yours is not sent and the row is not overwritten. Press Esc to drop it and see theirs; to change it, check and type the board again."));
        }
        held[b.board] = r;
        tr.classList.add("conflict");
        continue;
      }
      fillIn(tr, r);
    }
    told();
    // A team match: each match's line and its boards' 局分 follow (a busy row's wait).
    var ms = now.matches || [];
    for (var k = 0; k < ms.length; k++) {
      var head = document.querySelector("#m-" + ms[k].no + " tr.match th");
      if (head) head.textContent = ms[k].line;
      for (var q = 0; q < ms[k].points.length; q++) {
        var row = rowOf(ms[k].points[q][0]);
        if (row && !busy(row) && !(ms[k].points[q][0] in held)) row.cells[2].textContent = ms[k].points[q][1];
      }
    }
    var bold = progress0.querySelector("b");
    if (now.confirmed && !progress0.classList.contains("confirmed")) {
      tell(t("本轮成绩已签字确认, 请刷新页面", "This round's slips are signed: reload the page"));
    } else if (bold && !progress0.classList.contains("confirmed") && now.total) {
      bold.textContent = now.entered + "/" + now.total;
      progress0.setAttribute("data-entered", now.entered);
    }
  }
  var asking = false, askAgain = false, soonTimer = null;
  function ask() {
    if (asking) { askAgain = true; return; }
    asking = true;
    fetch(progress0.getAttribute("data-now"), {
      headers: { "Accept": "application/json" },
      credentials: "same-origin",
      cache: "no-store"
    }).then(function (r) {
      var json = (r.headers.get("Content-Type") || "").indexOf("application/json") >= 0;
      if (!r.ok || !json) {
        tell(t("登录已失效或服务器无应答, 请刷新页面", "Logged out or no answer from the server: reload the page"));
        return null;
      }
      return r.json();
    }).then(function (now) {
      if (now) apply(now);
    }).catch(function () {
      progress0.setAttribute("data-live", "error");
    }).then(function () {
      asking = false;
      if (askAgain) { askAgain = false; ask(); }
    });
  }
  function soon() {
    if (soonTimer) return;
    soonTimer = setTimeout(function () { soonTimer = null; ask(); }, 150 + Math.random() * 600);
  }
  var liveEv = progress0 && progress0.getAttribute("data-event");
  if (liveEv && progress0.getAttribute("data-now") && window.EventSource) {
    var es = null, again = null, shown = true, opened = false;
    var connect = function () {
      shown = true;
      if (es) return;
      progress0.setAttribute("data-live", "connecting");
      var mine = new EventSource("/e/" + encodeURIComponent(liveEv) + "/live");
      es = mine;
      mine.addEventListener("change", function (m) {
        var c;
        try { c = JSON.parse(m.data); } catch (e) { return; }
        if (c.last_seq > seq) soon();
      });
      mine.onopen = function () {
        progress0.setAttribute("data-live", "open");
        // Opened again after a drop: catch up whatever the first message says.
        if (opened) soon();
        opened = true;
      };
      mine.onerror = function () {
        progress0.setAttribute("data-live", "error");
        if (es === mine && mine.readyState === EventSource.CLOSED && !again) {
          es = null;
          again = setTimeout(function () {
            again = null;
            if (shown) { opened = true; connect(); }
          }, 3000 + Math.random() * 5000);
        }
      };
    };
    window.addEventListener("pagehide", function () {
      shown = false;
      if (again) { clearTimeout(again); again = null; }
      if (es) { es.close(); es = null; }
      progress0.setAttribute("data-live", "closed");
    });
    window.addEventListener("pageshow", function (e) {
      if (e.persisted) { opened = true; connect(); soon(); }
    });
    window.addEventListener("online", soon);
    connect();
  }

  var form = document.getElementById("entry");
  if (!form || form.tagName !== "FORM" || !document.getElementById("board")) return;
  var board = document.getElementById("board");
  var result = document.getElementById("result");
  var replaces = document.getElementById("replaces");
  var fr = document.getElementById("fouls_red");
  var fb = document.getElementById("fouls_black");
  var answer = document.getElementById("answer");
  var current = document.getElementById("current");
  var waiting = false;

  function say(ok, text) {
    answer.hidden = false;
    answer.textContent = text;
    answer.className = "flash " + (ok ? "ok" : "err");
  }
  conflictSay = function (text) { say(false, text); };

  function reset() {
    waiting = false;
    form.classList.remove("waiting");
    fr.value = "0";
    fb.value = "0";
    var kinds = form.querySelectorAll("select.foul-kind");
    for (var i = 0; i < kinds.length; i++) kinds[i].value = "";
    replaces.value = "";
    board.value = "";
    light(board, current);
    board.focus();
    release();
  }

  function send() {
    // The knockout's grid posts the page itself: the match's next game (rapid, decider)
    // appears on the same board once the page comes back.
    if (form.hasAttribute("data-post")) { form.submit(); return; }
    var body = new URLSearchParams(new FormData(form));
    sending = sheet ? sheet.querySelector("tr.current") : null;
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
        var tr = rowOf(a.board);
        if (tr) {
          tr.cells[3].textContent = a.stored || "";
          tr.classList.remove("conflict");
          delete held[a.board];
        }
      }
      sending = null;
      if (a.match_no && a.match_line) {
        var head = document.querySelector("#m-" + a.match_no + " tr.match th");
        if (head) head.textContent = a.match_line;
      }
      if (progress && a.total) {
        var b = progress.querySelector("b");
        if (b) b.textContent = a.entered + "/" + a.total;
        progress.setAttribute("data-entered", a.entered);
      }
      reset();
    }).catch(function () {
      say(false, t("网络错误, 未能确认是否录入, 请刷新页面查看", "Network error: reload to see what was stored"));
      sending = null;
      reset();
      soon();
    });
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!board.value.trim()) { board.focus(); return; }
    var tr = light(board, current);
    if (!tr) { board.focus(); return; }
    replaces.value = cellText(tr, 3);
    send();
  });

  board.addEventListener("input", function () {
    answer.hidden = true;
    light(board, current);
    release();
  });

  board.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter") {
      ev.preventDefault();
      var v = board.value.trim();
      if (!v) return;
      var tr = light(board, current);
      if (!tr) {
        say(false, current.textContent);
        board.select();
        return;
      }
      var stored = cellText(tr, 3);
      replaces.value = stored;
      waiting = true;
      form.classList.add("waiting");
      var mbAt = tr.getAttribute("data-mb");
      var named = mbAt ? "第" + mbAt.replace(".", "场第") + "台" : "第" + v + "台";
      say(true, stored
        ? named + t("现有成绩 " + stored + ": 按新成绩键改正, Esc 取消", ": has " + stored + "; press the new result key to replace it, Esc to cancel")
        : named + t(": 按成绩键", ": press the result key"));
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

// A desk page brought back by Back or Forward from the browser's back/forward cache shows
// the event as it was when it was left (a result entered since, a round paired): it is
// loaded again, unless the arbiter has typed into one of its forms — then it says so and
// leaves the reload to him. The result grid catches up by itself (above) and keeps what is
// typed.
(function () {
  "use strict";
  var en = /^en/.test(document.documentElement.lang || "");
  function typed() {
    var fields = document.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "hidden" || f.type === "submit" || f.type === "button" || f.type === "file") continue;
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) return true;
      } else if (f.tagName === "SELECT") {
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].selected !== f.options[j].defaultSelected) return true;
        }
      } else if (f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    var p = document.getElementById("progress");
    if (p && p.getAttribute("data-now")) return;
    if (!typed()) { location.reload(); return; }
    if (document.getElementById("stale")) return;
    var note = document.createElement("p");
    note.id = "stale";
    note.className = "flash info";
    note.setAttribute("role", "status");
    note.textContent = en
      ? "This page is as it was when you left it and may be out of date: reload it to see the event now (what you typed is lost)."
      : "这是离开时的页面, 内容可能已过时: 刷新即可看到最新情况 (已填写的内容将丢失).";
    var main = document.getElementById("main") || document.body;
    main.insertBefore(note, main.firstChild);
  });
})();
