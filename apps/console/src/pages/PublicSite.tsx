import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { useCan, useMe } from '../app/session.tsx';
import { useStatDefinitions } from '../queries.ts';
import { Choice, Field, FieldGroup, Form, TextField } from '../ui/form.tsx';
import { StatPicker } from '../ui/stat-picker.tsx';
import { CopyButton, ErrorNotice, Loading, PageHeader } from '../ui/ui.tsx';

type Settings = Schemas['PublicSiteSettings'];

/** Text for a double-quoted attribute of the snippet: a statistic's name may hold `&`, `"` or `<`. */
function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The public site: switched on, described and given its featured boards here; its link and embed to copy. */
export function PublicSite() {
  const canEdit = useCan()('write:config');
  const me = useMe();
  const queryClient = useQueryClient();
  const site = useQuery({ queryKey: ['public-site'], queryFn: () => ok(api.GET('/api/v1/admin/public-site')) });
  const stats = useStatDefinitions();
  const [draft, setDraft] = useState<Settings | null>(null);
  const [origins, setOrigins] = useState('');
  const saved = site.data?.data;
  useEffect(() => {
    if (saved) {
      setDraft(saved);
      setOrigins(saved.embed_origins.join('\n'));
    }
  }, [saved]);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT('/api/v1/admin/public-site', {
          body: {
            ...draft!,
            embed_origins: origins
              .split(/[\s,]+/)
              .map((o) => o.trim())
              .filter(Boolean),
          },
        }),
      ),
    onSuccess: (res) => queryClient.setQueryData(['public-site'], res),
  });
  const definitions = stats.data?.data ?? [];
  const publicStats = definitions.filter((d) => d.public);
  const nameOf = (key: string) => definitions.find((d) => d.key === key)?.display_name ?? key;
  const slug = me.workspaces.find((w) => w.id === me.workspace_id)?.slug ?? '';
  const link = `${me.public_url}/p/${encodeURIComponent(slug)}/`;
  const [embedStat, setEmbedStat] = useState('');
  const embedKey = embedStat || saved?.featured_stats[0] || publicStats[0]?.key || '';
  const embedUrl = `${me.public_url}/p/${encodeURIComponent(slug)}/embed/leaderboard/${encodeURIComponent(embedKey)}?limit=10`;
  const snippet = `<iframe src="${embedUrl}" title="${attribute(nameOf(embedKey))} leaderboard" width="400" height="520" style="border:0" loading="lazy"></iframe>`;

  return (
    <>
      <PageHeader
        title="Public site"
        description="Pages anyone can open without signing in: the featured leaderboards and an index of every leaderboard, who is online, a page per player and the seasons. Only public players and public statistics are shown; hidden ones are as if they did not exist."
      />
      <ErrorNotice error={site.error ?? stats.error} />
      {!draft ? (
        <Loading />
      ) : (
        <section className="card" aria-labelledby="site-settings">
          <h2 id="site-settings">Settings</h2>
          <Form mutation={save} errorTitle="The public site was not saved" submitLabel="Save" submitDisabled={!canEdit}>
            <Choice
              checked={draft.enabled}
              disabled={!canEdit}
              onChange={(enabled) => setDraft({ ...draft, enabled })}
              hint="Off: every page of the site answers “Page not found”."
            >
              Enabled: publish the public site
            </Choice>
            <TextField
              label="Title"
              name="title"
              maxLength={100}
              disabled={!canEdit}
              value={draft.title}
              onChange={(title) => setDraft({ ...draft, title })}
              placeholder="Defaults to the workspace's name"
            />
            <TextField
              label="Description"
              name="description"
              maxLength={300}
              disabled={!canEdit}
              value={draft.description}
              onChange={(description) => setDraft({ ...draft, description })}
              placeholder="One or two sentences under the title"
            />
            <FieldGroup
              legend="Featured statistics"
              name="featured_stats"
              hint="The home page shows the top 10 of each, in this order (at most 10)."
            >
              {draft.featured_stats.length > 0 ? (
                <ul className="chips" aria-label="Featured statistics">
                  {draft.featured_stats.map((key) => (
                    <li key={key}>
                      {nameOf(key)}
                      {canEdit ? (
                        <button
                          type="button"
                          className="icon"
                          aria-label={`Remove ${nameOf(key)}`}
                          onClick={() =>
                            setDraft({ ...draft, featured_stats: draft.featured_stats.filter((k) => k !== key) })
                          }
                        >
                          ×
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="small muted">None yet.</p>
              )}
              {canEdit && draft.featured_stats.length < 10 ? (
                <StatPicker
                  label="Add a statistic"
                  stats={publicStats.filter((d) => !draft.featured_stats.includes(d.key))}
                  value=""
                  onChange={(key) => setDraft({ ...draft, featured_stats: [...draft.featured_stats, key] })}
                />
              ) : null}
            </FieldGroup>
            <Field
              label="Sites that may embed leaderboards (allowed embedding origins)"
              name="embed_origins"
              hint="One origin a line, such as https://club.example. Empty: any site may embed them."
            >
              {(control) => (
                <textarea
                  {...control}
                  className="code mono"
                  rows={3}
                  disabled={!canEdit}
                  value={origins}
                  onChange={(e) => setOrigins(e.target.value)}
                />
              )}
            </Field>
          </Form>
        </section>
      )}
      {saved ? (
        <section className="card" aria-labelledby="site-share">
          <h2 id="site-share">Link and embed</h2>
          {saved.enabled ? (
            <p>
              The site is published at <a href={link}>{link}</a>
            </p>
          ) : (
            <p className="muted">The site is not published: its link answers “Page not found” until it is.</p>
          )}
          <div className="form-actions">
            <CopyButton text={link} label="Copy link" />
          </div>
          <StatPicker label="Statistic to embed" stats={publicStats} value={embedKey} onChange={setEmbedStat} />
          <Field label="Embed snippet" hint="Paste it into any web page (a forum, a site builder's HTML block).">
            {(control) => (
              <textarea
                {...control}
                className="code mono"
                readOnly
                rows={4}
                value={snippet}
                onFocus={(e) => e.target.select()}
              />
            )}
          </Field>
          <div className="form-actions">
            <CopyButton text={snippet} label="Copy embed snippet" />
          </div>
          {saved.enabled && embedKey ? (
            <>
              <h3>Preview</h3>
              <iframe className="embed-preview" src={embedUrl} title="Preview of the embedded leaderboard" />
            </>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
