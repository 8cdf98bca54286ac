// The live view's page script (docs/api.md, Live view). Plain standard APIs (fetch streaming, no framework, no
// third-party code): it works in current Chromium and Firefox. Its authority is the live link's token, which it
// takes out of the address bar at once and sends as a bearer token; GET /live/state renews it while the run runs.
'use strict';
(() => {
  const runId = document.body.dataset.run;
  let token = new URLSearchParams(location.search).get('token') || '';
  history.replaceState(null, '', location.pathname);

  const $ = (id) => document.getElementById(id);
  const screen = $('screen');
  let frame = { width: 1280, height: 800 };
  let controlId = null;
  /** When this page took control: a state asked for before then may not know it yet. */
  let tookAt = 0;
  let running = true;
  /** The frame stream said the agent has finished: the run is ending, and nobody can take control any more. */
  let finished = false;
  let waitingFor = null;
  let inputs = Promise.resolve();
  /** Ends the open frame stream when the page stops. */
  const frames = new AbortController();

  /** What the status line says of the run, as a sentence. */
  const SENTENCES = {
    queued: 'The run is waiting to start again.',
    running: 'The run is running.',
    succeeded: 'The run succeeded.',
    failed: 'The run failed.',
    cancelled: 'The run was cancelled.',
  };

  function api(method, path, body, signal) {
    const headers = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`/v1/runs/${runId}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', signal });
  }

  async function problemOf(response) {
    try {
      const body = await response.json();
      return (body && body.error && body.error.message) || `HTTP ${response.status}`;
    } catch {
      return `HTTP ${response.status}`;
    }
  }

  function say(message) {
    $('problem').hidden = message === null;
    $('problem').textContent = message || '';
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // Frames: server-sent events read from a fetch stream (EventSource cannot send the token as a header), until the
  // stream says the agent has finished (`ended`): the run is ending, and there is nothing more to show.
  async function watch() {
    while (running) {
      try {
        const response = await api('GET', '/live/frames', undefined, frames.signal);
        if (!response.ok) {
          const message = await problemOf(response);
          if (response.status === 401 || response.status === 403 || response.status === 410) return stop(message);
          // 409: the run has no sandbox yet; the state says when it has.
          if (response.status !== 409) say(message);
        } else if ((await readEvents(response.body)) === 'ended') {
          return;
        }
      } catch {
        // The connection broke (or the page stopped); try again below.
      }
      await sleep(1000);
    }
  }

  /** Shows the stream's frames; answers 'ended' when the stream said the agent has finished. */
  async function readEvents(body) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'closed';
      buffered += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const type = onEvent(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        if (type === 'ended') {
          await reader.cancel().catch(() => undefined);
          return 'ended';
        }
      }
    }
  }

  function onEvent(text) {
    let type = 'message';
    let data = '';
    for (const line of text.split('\n')) {
      if (line.startsWith('event: ')) type = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (type === 'ended') {
      finished = true;
      lostControl(null);
      $('take').disabled = true;
      $('screen-note').hidden = false;
      $('screen-note').textContent = 'The agent has finished.';
    } else if (type === 'waiting') {
      $('screen-note').hidden = false;
      $('screen-note').textContent = 'The agent has not opened the browser yet…';
    } else if (type === 'tabs') {
      showTabs(JSON.parse(data).tabs);
    } else if (type === 'frame') {
      const f = JSON.parse(data);
      frame = { width: f.width, height: f.height };
      screen.src = `data:image/jpeg;base64,${f.jpeg}`;
      $('screen-note').hidden = true;
    }
    return type;
  }

  // The run's state: status, step, thought, who controls the browser, what the agent waits for.
  async function poll() {
    while (running) {
      try {
        const asked = Date.now();
        const response = await api('GET', '/live/state');
        if (response.ok) show(await response.json(), asked);
        else if (response.status === 401 || response.status === 403 || response.status === 410) stop(await problemOf(response));
      } catch {
        // Next round.
      }
      await sleep(1000);
    }
  }

  function show(state, asked) {
    const run = state.run;
    if (run.live_url) token = new URL(run.live_url).searchParams.get('token') || token;
    const paused = run.status === 'running' && state.control.held ? ' The agent is paused while a person has control.' : '';
    const ending = run.status === 'running' && finished ? 'The agent has finished; the run is ending.' : null;
    $('status').textContent = ending || `${SENTENCES[run.status] || `The run is ${run.status}.`}${paused}`;
    $('steps').textContent = String(run.progress.steps);
    $('last-action').textContent = run.progress.last_action || '—';
    $('thought').textContent = state.thought || '—';
    const mine = controlId !== null;
    $('take').disabled = finished || state.control.held || run.status !== 'running';
    $('control').textContent = mine ? 'You have control.' : state.control.held ? `${state.control.by} has control since ${state.control.since}.` : '';
    if (mine && !state.control.held && asked > tookAt) lostControl('Your control ended (it was revoked).');
    showWaiting(run.waiting_for || null);
    showLoginNames(state.profiles || []);
    if (run.status === 'succeeded' || run.status === 'failed' || run.status === 'cancelled') stop(SENTENCES[run.status]);
  }

  function showWaiting(w) {
    // An answer typed for a question that is no longer asked must not be sent to the next one: it is emptied.
    const replaced = waitingFor !== null && (w === null || w.request_id !== waitingFor.request_id);
    if (replaced && $('answer').value !== '') {
      $('answer').value = '';
      say('The question you were answering is no longer asked (it was answered elsewhere, or it expired): your answer was not sent.');
    }
    waitingFor = w;
    $('waiting').hidden = w === null;
    if (w === null) return;
    $('waiting-kind').textContent = w.kind;
    $('waiting-question').textContent = w.question;
    $('answer-form').hidden = w.kind !== 'answer';
    $('approve-form').hidden = w.kind !== 'approve';
    $('takeover-hint').hidden = w.kind !== 'takeover';
  }

  // The run has ended (or the link no longer works): no more requests, and the frame stream is closed.
  function stop(message) {
    running = false;
    frames.abort();
    controlId = null;
    $('take').disabled = true;
    $('hand-back-form').hidden = true;
    screen.classList.remove('controlled');
    $('status').textContent = message;
  }

  async function answerHuman(fields) {
    if (waitingFor === null) return;
    const response = await api('POST', '/human', { request_id: waitingFor.request_id, ...fields });
    if (!response.ok) return say(await problemOf(response));
    say(null);
    // Emptied at once: the next question must not come with this answer in the box, ready to be sent again.
    $('answer').value = '';
    showWaiting((await response.json()).waiting_for || null);
  }

  $('send-answer').addEventListener('click', () => void answerHuman({ answer: $('answer').value }));
  $('approve').addEventListener('click', () => void answerHuman({ approved: true }));
  $('reject').addEventListener('click', () => void answerHuman({ approved: false }));

  $('take').addEventListener('click', async () => {
    const response = await api('POST', '/live/control', {});
    if (!response.ok) return say(await problemOf(response));
    controlId = (await response.json()).control_id;
    tookAt = Date.now();
    say(null);
    $('hand-back-form').hidden = false;
    $('take').hidden = true;
    screen.classList.add('controlled');
    // Focused for the keys, without scrolling: the screen stays where the person aims.
    screen.focus({ preventScroll: true });
  });

  $('hand-back').addEventListener('click', async () => {
    const note = $('note').value;
    await inputs;
    const response = await api('POST', '/live/control/release', { control_id: controlId, note: note === '' ? null : note });
    if (!response.ok) return say(await problemOf(response));
    lostControl(null);
    $('note').value = '';
    // Handing back answers the takeover the agent asked for, with the note: nothing more to send.
    const ended = await response.json();
    if (waitingFor !== null && ended.answered_request_id === waitingFor.request_id) showWaiting(null);
  });

  // "Save this login": the run's own profiles are offered; another name makes a new profile.
  function showLoginNames(names) {
    $('login-names').replaceChildren(
      ...names.map((name) => {
        const option = document.createElement('option');
        option.value = name;
        return option;
      }),
    );
    if ($('login-name').value === '' && document.activeElement !== $('login-name') && names.length > 0) $('login-name').value = names[0];
  }

  $('save-login-button').addEventListener('click', async () => {
    const profile = $('login-name').value.trim();
    if (profile === '') return say('Name the profile to save this login as.');
    // After the input sent so far: the state saved is the one the person sees.
    await inputs;
    const response = await api('POST', '/live/login', { control_id: controlId, profile });
    if (!response.ok) return say(await problemOf(response));
    say(null);
    const saved = await response.json();
    $('login-saved').hidden = false;
    $('login-saved').textContent = `Saved as the profile ${saved.name} (${saved.origins.join(', ') || 'no site yet'}). Later runs that name it start signed in.`;
  });

  function lostControl(message) {
    controlId = null;
    $('hand-back-form').hidden = true;
    $('take').hidden = false;
    screen.classList.remove('controlled');
    if (message !== null) say(message);
  }

  // Input: in the page's CSS pixels, scaled from where the frame is shown; sent in order. Moves go at most ten a
  // second, so that a person's pointer stays within the run's links' request rate (limits.requests_per_minute).
  function send(input) {
    if (controlId === null) return;
    const id = controlId;
    inputs = inputs.then(async () => {
      const response = await api('POST', '/live/input', { control_id: id, input });
      if (!response.ok) say(await problemOf(response));
    }).catch(() => undefined);
  }

  function at(event) {
    const rect = screen.getBoundingClientRect();
    const clamp = (v, max) => Math.min(Math.max(v, 0), max);
    return {
      x: clamp(((event.clientX - rect.left) / rect.width) * frame.width, frame.width),
      y: clamp(((event.clientY - rect.top) / rect.height) * frame.height, frame.height),
    };
  }

  const modifiers = (e) => (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
  const BUTTONS = ['left', 'middle', 'right'];
  let lastMove = 0;
  let pressed = 'none';

  screen.addEventListener('mousedown', (e) => {
    if (controlId === null) return;
    e.preventDefault();
    screen.focus({ preventScroll: true });
    pressed = BUTTONS[e.button] || 'left';
    send({ type: 'mouse', event: 'mousePressed', ...at(e), button: pressed, clickCount: Math.min(e.detail || 1, 3), modifiers: modifiers(e) });
  });
  screen.addEventListener('mouseup', (e) => {
    if (controlId === null) return;
    e.preventDefault();
    send({ type: 'mouse', event: 'mouseReleased', ...at(e), button: BUTTONS[e.button] || 'left', clickCount: Math.min(e.detail || 1, 3), modifiers: modifiers(e) });
    pressed = 'none';
  });
  screen.addEventListener('mousemove', (e) => {
    if (controlId === null || e.timeStamp - lastMove < 100) return;
    lastMove = e.timeStamp;
    send({ type: 'mouse', event: 'mouseMoved', ...at(e), button: pressed, clickCount: 0, modifiers: modifiers(e) });
  });
  screen.addEventListener('contextmenu', (e) => {
    if (controlId !== null) e.preventDefault();
  });
  screen.addEventListener(
    'wheel',
    (e) => {
      if (controlId === null) return;
      e.preventDefault();
      const scale = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? frame.height : 1;
      send({ type: 'wheel', ...at(e), deltaX: e.deltaX * scale, deltaY: e.deltaY * scale, modifiers: modifiers(e) });
    },
    { passive: false },
  );
  for (const kind of ['keydown', 'keyup']) {
    screen.addEventListener(kind, (e) => {
      if (controlId === null) return;
      e.preventDefault();
      const text = kind === 'keydown' && !e.ctrlKey && !e.metaKey ? (e.key.length === 1 ? e.key : e.key === 'Enter' ? '\r' : '') : '';
      send({ type: 'key', event: kind === 'keydown' ? 'keyDown' : 'keyUp', key: e.key.slice(0, 64), code: e.code.slice(0, 64), keyCode: e.keyCode & 255, text, modifiers: modifiers(e) });
    });
  }
  screen.addEventListener('paste', (e) => {
    if (controlId === null) return;
    e.preventDefault();
    const text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
    if (text !== '') send({ type: 'text', text: text.slice(0, 10000) });
  });

  // The browser's tabs, when it has several: the frames show the current one; a person in control switches tabs.
  const tabStrip = document.createElement('div');
  tabStrip.id = 'tabs';
  tabStrip.className = 'row';
  tabStrip.setAttribute('role', 'tablist');
  tabStrip.setAttribute('aria-label', "The browser's tabs");
  tabStrip.hidden = true;
  $('screen-box').before(tabStrip);
  function showTabs(tabs) {
    tabStrip.replaceChildren(
      ...tabs.map((tab) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = tab.current ? '' : 'secondary';
        button.setAttribute('role', 'tab');
        button.setAttribute('aria-selected', String(tab.current));
        button.textContent = (tab.title || tab.url || 'New tab').slice(0, 40);
        button.title = tab.url || '';
        button.addEventListener('click', () => {
          if (controlId === null) return say('Take control to switch tabs.');
          send({ type: 'tab', index: tab.index });
        });
        return button;
      }),
    );
    tabStrip.hidden = tabs.length < 2;
  }

  void watch();
  void poll();
})();
