// What every page does with a script (the pages' Content-Security-Policy allows no inline
// script): the language menu takes effect when chosen, Print links print, and the
// attendance page counts who is ticked present.
(function () {
  "use strict";
  document.querySelectorAll("select[data-submit-on-change]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.querySelectorAll("[data-print]").forEach(function (link) {
    link.addEventListener("click", function (event) { event.preventDefault(); window.print(); });
  });
  var out = document.getElementById("present-count");
  var form = document.getElementById("attendance");
  if (out && form) {
    var count = function () {
      out.textContent = out.dataset.label + ": " +
        form.querySelectorAll("#field-present input:checked").length;
    };
    form.addEventListener("change", count);
    count();
  }
})();
