// The replay page of a game record (templates/game.html): every position is in the page
// (data-fens, board FENs from the start to the final one); the buttons and the arrow keys
// only swap them. Without this script the final position and the move list show.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var g = document.getElementById("xq-pieces");
  if (!root || !g) return;
  var fens = (root.getAttribute("data-fens") || "").split("|");
  var last = fens.length - 1;
  var at = last;
  var NS = "http://www.w3.org/2000/svg";
  var CH = { R: "車", N: "馬", B: "相", A: "仕", K: "帥", C: "炮", P: "兵",
             r: "车", n: "马", b: "象", a: "士", k: "将", c: "炮", p: "卒" };
  function draw(fen) {
    while (g.firstChild) g.removeChild(g.firstChild);
    var rows = fen.split("/");
    for (var row = 0; row < rows.length && row < 10; row++) {
      var file = 0;
      for (var i = 0; i < rows[row].length; i++) {
        var c = rows[row].charAt(i);
        if (c >= "0" && c <= "9") { file += +c; continue; }
        if (!CH[c]) continue;
        var x = 10 + file * 10, y = 10 + row * 10;
        var p = document.createElementNS(NS, "g");
        p.setAttribute("class", "pc " + (c === c.toUpperCase() ? "r" : "b"));
        var ci = document.createElementNS(NS, "circle");
        ci.setAttribute("cx", x); ci.setAttribute("cy", y); ci.setAttribute("r", "4.5");
        var t = document.createElementNS(NS, "text");
        t.setAttribute("x", x); t.setAttribute("y", y); t.setAttribute("dy", "1.9");
        t.textContent = CH[c];
        p.appendChild(ci); p.appendChild(t); g.appendChild(p);
        file += 1;
      }
    }
  }
  var label = document.getElementById("xq-at");
  var moves = document.querySelectorAll("#moves .mv");
  function go(n) {
    at = Math.max(0, Math.min(last, n));
    draw(fens[at]);
    if (label) label.textContent = at + "/" + last;
    for (var i = 0; i < moves.length; i++) {
      var ply = +moves[i].getAttribute("data-ply");
      moves[i].classList.toggle("now", ply === at);
    }
  }
  function on(id, f) {
    var b = document.getElementById(id);
    if (b) b.addEventListener("click", f);
  }
  on("xq-first", function () { go(0); });
  on("xq-prev", function () { go(at - 1); });
  on("xq-next", function () { go(at + 1); });
  on("xq-last", function () { go(last); });
  for (var i = 0; i < moves.length; i++) {
    moves[i].addEventListener("click", function () { go(+this.getAttribute("data-ply")); });
  }
  document.addEventListener("keydown", function (e) {
    if (e.target && /input|textarea|select/i.test(e.target.tagName)) return;
    if (e.key === "ArrowLeft") { go(at - 1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { go(at + 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(last); e.preventDefault(); }
  });
  var steps = document.getElementById("steps");
  if (steps) steps.hidden = false;
  go(last);
})();
