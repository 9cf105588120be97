"""What the tests run against, one small module each.

* ``servers`` - the one base of every server a test starts on ``127.0.0.1:<free port>``
  (bind, serve from a thread, stop and close), with the HTTP and waitress flavours.
* ``workspace`` - who the fake workspace is: team, bot, app, the channels the bot is in.
* ``spec`` - Slack's published specifications, kept in ``slack-spec/``.
* ``limits`` - the Block Kit and view limits Slack enforces.
* ``web_api`` - the Web API methods the fake answers (``METHODS``) and what it records.
* ``fake_slack`` - ``FakeSlack``, the strict fake Web API and response_url sink: one per
  test run, ``reset()`` between tests; ``fake_slack_http`` - its HTTP side, which refuses
  the requests of an earlier test.
* ``socket_mode`` - ``FakeSocketModeServer``, a local Socket Mode endpoint.
* ``fake_zoom`` - ``FakeZoom``, a strict fake Zoom (OAuth, users and cloud recordings,
  downloads) that also posts Zoom's signed webhooks: one per test run, ``reset()`` between
  tests; ``fake_zoom_http`` - its HTTP side, what it answers each request.
* ``signed`` - request bodies and signatures exactly as Slack sends them.
* ``slackbot`` - the real app on loopback, wired to the fake Slack; ``bot_server`` - the
  bot's HTTP server, one per test run, answering with the app of the test now running.
* ``pgserver`` / ``pg_fixtures`` - a throwaway PostgreSQL, one fresh schema per test.
* ``waiting`` - waiting on a condition with a deadline, instead of sleeping.
* ``cli`` - ``debrief ARGS`` in-process (click's CliRunner), as a process would end and
  print; ``serve`` - the real ``debrief serve`` process, where the process is the point.
"""
