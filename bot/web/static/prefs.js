// Progressive enhancement only: the page works without this file.
// Asks before forgetting a fact (the confirmation text comes from the page, in its language).
(function () {
  "use strict";
  document.querySelectorAll("form.forget").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var question = form.getAttribute("data-confirm");
      if (question && !window.confirm(question)) {
        event.preventDefault();
      }
    });
  });
  var result = document.getElementById("result");
  if (result) {
    result.focus();
  }
})();
