// htmx leaves an answer of 4xx or 5xx unswapped; the dashboard's carry the "field: rule" message to show in place of
// the result, so they are swapped like any other.
document.addEventListener('htmx:beforeSwap', function (event) {
  if (event.detail.xhr.status >= 400) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
