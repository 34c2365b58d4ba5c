/// The dashboard's script and style sheet, served by the binary itself (no CDN, no build step).
public enum DashboardAssets {
    /// Listens to `/events` and changes only what changed: a source's table row (its cells, from the event's
    /// JSON, set as text), its card on its own page (fetched again from `/cards/{id}`, server-rendered and
    /// escaped there), and the summary (fetched from `/summary` at most once a second, whatever the number of
    /// sources changing). Refresh buttons post with the session cookie. Without EventSource the pages are
    /// still complete; they are only not live.
    public static let script = #"""
        "use strict";
        (function () {
          function find(selector, id) {
            var found = document.querySelectorAll(selector);
            for (var i = 0; i < found.length; i++) {
              if (found[i].getAttribute("data-source") === id) return found[i];
            }
            return null;
          }
          function when(iso) { return iso ? iso.slice(0, 16).replace("T", " ") : "\u2013"; }
          function setTime(cell, iso) {
            var time = cell && cell.querySelector("time");
            if (!time) return;
            if (iso) { time.setAttribute("datetime", iso); } else { time.removeAttribute("datetime"); }
            time.textContent = when(iso);
          }
          function duration(ms) { return ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(1) + " s"; }
          function updateRow(state) {
            var row = find("tr[data-source]", state.id);
            if (!row) return;
            row.setAttribute("data-status", state.status);
            if (state.running) { row.setAttribute("data-running", "true"); } else { row.removeAttribute("data-running"); }
            var badge = row.querySelector("td.status .badge");
            if (badge) {
              badge.className = "badge " + state.status;
              badge.textContent = state.status + (state.error ? " (" + state.error.kind + ")" : "");
            }
            if (state.status === "loading") return;
            row.querySelector("td.items").textContent = String(state.itemCount);
            if (typeof state.durationMs === "number") row.querySelector("td.duration").textContent = duration(state.durationMs);
            setTime(row.querySelector("td.success"), state.lastSuccess);
            setTime(row.querySelector("td.next"), state.nextRefresh);
          }
          var summaryDue = null;
          function refreshSummary() {
            if (summaryDue || !document.getElementById("summary")) return;
            summaryDue = setTimeout(function () {
              summaryDue = null;
              fetch("/summary", { credentials: "same-origin" })
                .then(function (response) { return response.ok ? response.text() : null; })
                .then(function (html) {
                  var summary = document.getElementById("summary");
                  if (!html || !summary) return;
                  summary.outerHTML = html;
                  var failing = Number(document.getElementById("summary").getAttribute("data-failing"));
                  document.title = failing > 0 ? "(" + failing + " failing) aggregate" : "aggregate";
                })
                .catch(function () {});
            }, 1000);
          }
          function reloadCard(id) {
            fetch("/cards/" + encodeURIComponent(id), { credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (html) {
                var card = find("section.card", id);
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
            updateRow(state);
            var card = find("section.card", state.id);
            if (card && state.running) card.setAttribute("data-running", "true");
            if (card && !state.running) reloadCard(state.id);
            if (!state.running) refreshSummary();
          });
          events.onopen = function () { document.documentElement.setAttribute("data-live", "true"); };
          // A page left for another closes its stream: a browser opens at most six connections to a host, and
          // the streams of pages it keeps for "back" left none for the seventh page (it waited about a minute).
          // Such a page, shown again, missed what changed meanwhile, so it loads afresh.
          window.addEventListener("pagehide", function () {
            events.close();
            document.documentElement.removeAttribute("data-live");
          });
          window.addEventListener("pageshow", function (event) { if (event.persisted) location.reload(); });
        })();
        """#
}
