// Table-side entry: the running sum of point cards, and card buttons that type card codes.
(function () {
  "use strict";
  var form = document.getElementById("deal-entry");
  if (!form) return;
  var total = parseInt(form.dataset.pointTotal || "0", 10);
  var sum = document.getElementById("points-sum");
  function refresh() {
    if (!sum) return;
    var n = 0;
    form.querySelectorAll("input.points").forEach(function (el) { n += parseInt(el.value || "0", 10) || 0; });
    sum.textContent = sum.dataset.label.replace("%s", n).replace("%t", total);
    sum.className = "sum " + (n === total ? "ok" : "off");
  }
  form.addEventListener("input", refresh);
  refresh();
  var target = null;
  form.querySelectorAll("input.cards, textarea.cards").forEach(function (el) {
    el.addEventListener("focus", function () { target = el; });
  });
  form.querySelectorAll(".cardpad button").forEach(function (button) {
    button.addEventListener("click", function () {
      if (!target) return;
      var code = button.dataset.code;
      var value = target.value.replace(/\s+$/, "");
      target.value = value ? value + " " + code : code;
      target.focus();
    });
  });
})();
