// Shared by the task pages of bench/web-tasks.ts: a page calls done() when its own check finds the task solved.
function done(detail) {
  fetch('/__done', { method: 'POST', body: JSON.stringify({ page: location.pathname, detail: String(detail || '') }) });
  document.body.insertAdjacentHTML('beforeend', '<p id="bench-done">Task complete.</p>');
}
