import { DatabaseSync } from 'node:sqlite';
const db = new DatabaseSync('.bench/pages.db');
const viewer = (db.prepare("select viewer_id from subscriptions limit 1").get() as any).viewer_id;
const queries: [string, string, any[]][] = [
  ['follow videos', `select v.id from videos v join users u on u.id = v.creator_id where v.published_at is not null and v.privacy = 'public' and v.creator_id in (select creator_id from subscriptions where viewer_id = ? and status = 'active') order by v.published_at desc, v.id desc limit 9`, [viewer]],
  ['follow live', `select s.id from streams s join users u on u.id = s.creator_id where s.status = 'live' and s.privacy = 'public' and s.creator_id in (select creator_id from subscriptions where viewer_id = ? and status = 'active') order by s.viewer_count desc, s.id desc limit 8`, [viewer]],
  ['fts videos', `select rowid, bm25(video_search, 10.0, 1.0, 4.0, 4.0) from video_search where video_search match ? order by rowid desc limit 1000`, ['"speedrun"*']],
  ['fts streams', `select stream_search.rowid as doc, bm25(stream_search, 10.0, 1.0, 4.0) as score, t.status = 'live' as live from stream_search join stream_search_docs d on d.rowid = stream_search.rowid join streams t on t.id = d.item_id where stream_search match ? and t.privacy = 'public' and (t.status = 'live' or (t.status = 'scheduled' and t.scheduled_at >= 0)) order by stream_search.rowid desc limit 1000`, ['"speedrun"*']],
  ['fts channels', `select rowid, bm25(channel_search) from channel_search where channel_search match ? order by rowid desc limit 1000`, ['"creator"*']],
];
for (const [name, q, p] of queries) {
  console.log(name, (db.prepare('explain query plan ' + q).all(...p) as any[]).map((r) => r.detail).join(' | '));
  const st = db.prepare(q);
  st.all(...p);
  const t0 = performance.now();
  for (let i = 0; i < 10; i++) st.all(...p);
  console.log('  ', ((performance.now() - t0) / 10).toFixed(2), 'ms', st.all(...p).length);
}
