/// The dashboard's style sheet: light and dark, a compact table, status as a word on a coloured badge.
///
/// Every badge's text meets WCAG AA (at least 4.5:1) on its colour: white on the light scheme's dark colours,
/// near-black on the dark scheme's bright ones. An error message (`.error`) is red text, never a badge's, and
/// nothing that holds a badge is dimmed with `opacity` (it would blend the badge into the page).
extension DashboardAssets {
    public static let style = #"""
        :root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --text: #1b1f24; --muted: #5b6570;
                --ok: #1a7f37; --error: #cf222e; --stale: #9a6700; --loading: #57606a; --border: #d0d7de;
                --badge-text: #fff; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #8d96a0; --ok: #3fb950;
                  --error: #f85149; --stale: #d29922; --loading: #8d96a0; --border: #30363d; --badge-text: #0d1117; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--text); }
        body > header { padding: 0.8rem 1rem; display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
        h1 { font-size: 1.3rem; margin: 0; }
        a { color: inherit; }
        .meta { color: var(--muted); font-size: 0.85rem; margin: 0.2rem 0 0.6rem; }
        main { padding: 0 1rem 1rem; }
        body > header h1 a { text-decoration: none; }
        nav a[aria-current] { font-weight: 600; }
        form.logout { display: inline; margin: 0; } form.logout button { font: inherit; padding: 0 0.4rem; }
        .counts { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0 0 0.8rem; }
        .count { background: var(--card); border: 1px solid var(--border); border-radius: 6px; padding: 0.3rem 0.7rem; min-width: 6rem; }
        .count dt { color: var(--muted); font-size: 0.8rem; } .count dd { margin: 0; font-size: 1.3rem; font-weight: 600; }
        .count-error dd, .count-timeout dd { color: var(--error); } .count-stale dd { color: var(--stale); }
        .count small { font-size: 0.75rem; font-weight: 400; }
        #attention { background: var(--card); border: 1px solid var(--border); border-left: 4px solid var(--error); border-radius: 6px; padding: 0.5rem 0.8rem; margin: 0 0 0.8rem; }
        #attention h2 { font-size: 1rem; margin: 0 0 0.3rem; } #attention li { border-top: none; padding: 0.15rem 0; }
        #attention .error { display: inline; }
        #attention.calm { color: var(--muted); border-left-color: var(--ok); }
        .filters { display: flex; flex-wrap: wrap; gap: 0.6rem; align-items: center; margin: 0 0 0.5rem; }
        .filters input, .filters select, .filters button { font: inherit; }
        #sources, #items { background: var(--card); border: 1px solid var(--border); }
        #sources th[scope=col] a { text-decoration: none; }
        #sources tbody th { font-weight: 400; }
        #sources tr[data-running="true"] th, #sources tr[data-running="true"] td:not(.status) { color: var(--muted); }
        #sources tr[data-status="error"], #sources tr[data-status="timeout"] { background: color-mix(in srgb, var(--error) 8%, transparent); }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        .spark .ok { fill: var(--ok); } .spark .bad { fill: var(--error); }
        .spark-none { color: var(--muted); }
        .pager { margin: 0.6rem 0; }
        form.search { margin-left: auto; display: flex; gap: 0.3rem; }
        form.search input { min-width: 16rem; }
        .snippet { margin: 0.2rem 0 0; color: var(--muted); font-size: 0.9em; }
        .snippet mark { color: inherit; background: #fff3b0; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .card { max-width: 70rem; background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 0.8rem; overflow: hidden; }
        .card > header { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
        .card h2 { font-size: 1.05rem; margin: 0; flex: 1; }
        .card[data-running="true"] { border-style: dashed; }
        .badge { border-radius: 999px; padding: 0.05rem 0.55rem; font-size: 0.8rem; color: var(--badge-text); background: var(--loading); }
        .badge.ok { background: var(--ok); } .badge small { font-size: 0.75rem; } .badge.error, .badge.timeout { background: var(--error); }
        .badge.stale, .badge.skipped { background: var(--stale); }
        .error:not(.badge) { color: var(--error); margin: 0.3rem 0 0; width: 100%; font-size: 0.85rem; overflow-wrap: anywhere; }
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
