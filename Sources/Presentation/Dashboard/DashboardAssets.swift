/// The dashboard's script and style sheet, served by the binary itself (no CDN, no build step).
public enum DashboardAssets {
    /// Listens to `/events`: when a source starts, its card says so; when it finished, the card is fetched
    /// again from `/cards/{id}` (server-rendered, escaped there) and swapped in. Refresh buttons post with
    /// the session cookie. Without EventSource the page still reloads itself every five minutes.
    public static let script = #"""
        "use strict";
        (function () {
          function cardOf(id) {
            var cards = document.querySelectorAll("section.card");
            for (var i = 0; i < cards.length; i++) {
              if (cards[i].getAttribute("data-source") === id) return cards[i];
            }
            return null;
          }
          function reload(id) {
            fetch("/cards/" + encodeURIComponent(id), { credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (html) {
                var card = cardOf(id);
                if (html && card) card.outerHTML = html;
              })
              .catch(function () {});
          }
          document.addEventListener("submit", function (event) {
            var button = event.target.querySelector("[data-refresh]");
            if (!button) return;
            event.preventDefault();
            button.disabled = true;
            fetch(event.target.action, { method: "POST", credentials: "same-origin" })
              .catch(function () {})
              .then(function () { button.disabled = false; });
          });
          if (!window.EventSource) return;
          var events = new EventSource("/events");
          events.addEventListener("source", function (event) {
            var state;
            try { state = JSON.parse(event.data); } catch (error) { return; }
            var card = cardOf(state.id);
            if (!card) return;
            if (state.running) {
              card.setAttribute("data-running", "true");
            } else {
              reload(state.id);
            }
          });
          events.onopen = function () { document.documentElement.setAttribute("data-live", "true"); };
        })();
        """#

    public static let style = #"""
        :root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --text: #1b1f24; --muted: #5b6570;
                --ok: #1a7f37; --error: #cf222e; --stale: #9a6700; --loading: #57606a; --border: #d0d7de; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #8d96a0; --ok: #3fb950;
                  --error: #f85149; --stale: #d29922; --loading: #8d96a0; --border: #30363d; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--text); }
        body > header { padding: 0.8rem 1rem; display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
        h1 { font-size: 1.3rem; margin: 0; }
        a { color: inherit; }
        .meta { color: var(--muted); font-size: 0.85rem; margin: 0.2rem 0 0.6rem; }
        form.logout { display: inline; margin: 0; } form.logout button { font: inherit; padding: 0 0.4rem; }
        #cards { display: grid; gap: 1rem; padding: 0 1rem 1rem; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); }
        .card { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 0.8rem; overflow: hidden; }
        .card > header { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
        .card h2 { font-size: 1.05rem; margin: 0; flex: 1; }
        .card[data-running="true"] { opacity: 0.75; }
        .badge { border-radius: 999px; padding: 0.05rem 0.55rem; font-size: 0.8rem; color: #fff; background: var(--loading); }
        .badge.ok { background: var(--ok); } .badge.error, .badge.timeout { background: var(--error); }
        .badge.stale, .badge.skipped { background: var(--stale); }
        .error { color: var(--error); margin: 0.3rem 0 0; width: 100%; font-size: 0.85rem; overflow-wrap: anywhere; }
        .refresh { font: inherit; font-size: 0.8rem; }
        form { margin: 0 0 0.5rem; }
        ul { list-style: none; padding: 0; margin: 0; }
        li { padding: 0.25rem 0; border-top: 1px solid var(--border); overflow-wrap: anywhere; }
        time, .feed, .year, .number { color: var(--muted); font-size: 0.85rem; }
        .chip { display: inline-block; border-radius: 999px; padding: 0 0.45rem; font-size: 0.75rem; color: #fff; background: var(--chip); }
        .cities { display: grid; gap: 0.5rem; grid-template-columns: repeat(auto-fill, minmax(7rem, 1fr)); }
        .city { border: 1px solid var(--border); border-radius: 6px; padding: 0.4rem; display: flex; flex-direction: column; }
        .city .temp { font-size: 1.6rem; }
        .city .condition { color: var(--muted); font-size: 0.85rem; }
        .movies { display: grid; gap: 0.6rem; grid-template-columns: repeat(auto-fill, minmax(6.5rem, 1fr)); }
        .movie { margin: 0; } .movie img { width: 100%; border-radius: 4px; aspect-ratio: 2 / 3; object-fit: cover; }
        .rating { font-weight: 600; }
        table { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
        th, td { text-align: left; padding: 0.2rem 0.3rem; border-top: 1px solid var(--border); }
        .empty, .more { color: var(--muted); }
        @media (min-width: 1800px) { body { font-size: 18px; } }
        """#
}
