/** The operator command's commands, each as calls of the operator API and the lines to print. */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from './args';
import { OpsError, call, download, dossierRoute, type Fetch, type Settings } from './client';
import { KEPT_NAMES, dossierLines, retentionLines, table, type Dossier } from './format';
import { HELP } from './help';

/** Runs a command against the server; resolves to the lines to print, throws OpsError. */
export async function runCommand(command: Command, settings: Settings, fetchImpl: Fetch = fetch): Promise<string[]> {
  switch (command.name) {
    case 'help':
      return [HELP];
    case 'list': {
      const query = new URLSearchParams();
      if (command.search) query.set('search', command.search);
      if (command.limit) query.set('limit', String(command.limit));
      const qs = query.toString();
      const rows = await call<'listOpsDossiers'>(settings, fetchImpl, 'GET', `/ops/dossiers${qs ? `?${qs}` : ''}`);
      if (!rows.length) return ['No dossiers.'];
      return table(
        ['ID', 'E-MAIL', 'NAME', 'TYPE', 'STEP', 'STATUS', 'PAID', 'CREATED', 'ITEMS'],
        rows.map((r) => [
          String(r.id),
          r.email,
          r.name ?? '-',
          String(r.registration_type),
          r.step,
          r.status,
          r.paid ? 'yes' : 'no',
          r.created_at.slice(0, 16).replace('T', ' '),
          String(r.timeline_items),
        ]),
      );
    }
    case 'show': {
      return dossierLines(await call<'getOpsDossier'>(settings, fetchImpl, 'GET', dossierRoute(command.dossier)));
    }
    case 'add': {
      const { item, dossier } = await call<'addOpsTimelineItem'>(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/timeline`, command.body);
      return [`Added ${item.type} #${item.id} (${item.date}) to dossier ${dossier.id} (${dossier.email}).`, ...dossierLines(dossier)];
    }
    case 'attach': {
      const form = new FormData();
      for (const [i, file] of command.files.entries()) {
        let data: Buffer;
        try {
          data = await fs.promises.readFile(file);
        } catch (error) {
          throw new OpsError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
        form.append(`files[${i}]`, new Blob([new Uint8Array(data)]), path.basename(file));
      }
      const { dossier } = await call<'attachOpsTradeRegisterDocuments'>(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/documents`, form);
      return [`Attached ${command.files.length} file(s) to dossier ${dossier.id} (${dossier.email}).`, ...dossierLines(dossier)];
    }
    case 'download': {
      const dossier: Dossier = await call<'getOpsDossier'>(settings, fetchImpl, 'GET', dossierRoute(command.dossier));
      const documents = dossier.signed_documents ?? [];
      if (!documents.length) throw new OpsError(`dossier ${dossier.id} (${dossier.email}) has no signed documents yet: they are made when the applicant sends the dossier`);
      const lines: string[] = [];
      await fs.promises.mkdir(command.out, { recursive: true });
      for (const doc of documents) {
        const data = await download(settings, fetchImpl, `${dossierRoute(String(dossier.id))}/signed-documents/${doc.id}`);
        const target = path.join(command.out, path.basename(doc.name));
        try {
          // Never over an existing file: an operator's folder may hold another dossier's PDF of the same name.
          await fs.promises.writeFile(target, data, { flag: 'wx' });
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          throw new OpsError(code === 'EEXIST' ? `${target} already exists: choose another folder with --out` : `cannot write ${target}: ${code ?? (error as Error).message}`);
        }
        lines.push(`  ${target}  (${data.length} bytes)`);
      }
      return [`Saved ${documents.length} signed document(s) of dossier ${dossier.id} (${dossier.email}):`, ...lines];
    }
    case 'reject': {
      const { item, dossier } = await call<'rejectOpsDossier'>(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/reject`, command.date ? { date: command.date } : {});
      return [`Dossier ${dossier.id} (${dossier.email}) rejected on ${item.date}.`, ...dossierLines(dossier)];
    }
    case 'ask': {
      const mail = await call<'askOpsMissingDocuments'>(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/missing-documents`, { message: command.message });
      return [`Mail "${mail.subject}" queued to ${mail.to}.`];
    }
    case 'staff:add': {
      const staff = await call<'createOpsStaffAccount'>(settings, fetchImpl, 'POST', '/ops/staff', { email: command.email, password: command.password, role: command.role });
      return [`Staff account #${staff.id} ${staff.email} (${staff.role}) created: sign in at /staff/login.`];
    }
    case 'files:reencrypt': {
      const s = await call<'reencryptOpsFiles'>(settings, fetchImpl, 'POST', '/ops/files/reencrypt', {});
      return [
        s.skipped
          ? 'Another run was under way; nothing was done by this one.'
          : `Stored files under key "${s.key_id}": ${s.checked} checked, ${s.encrypted} encrypted, ${s.rewrapped} rewrapped, ${s.current} already current, ${s.missing} missing, ${s.failed} unreadable (${s.duration_ms} ms).`,
        ...(s.failed ? ['  Unreadable files are named in the server log (an unknown key id: add the key to FILES_ENCRYPTION_OLD_KEYS).'] : []),
      ];
    }
    case 'erase': {
      const plan = await call<'eraseOpsUser'>(settings, fetchImpl, 'POST', '/ops/users/erase', { email: command.email, erase: command.yes });
      const kept = plan.kept.length
        ? plan.kept.map((k) => `    ${KEPT_NAMES[k.kind] ?? k.kind} (${k.count})${k.keep_until ? ` until ${k.keep_until}` : ''}`)
        : ['    nothing'];
      return plan.erased
        ? [`Account ${plan.email} erased (${plan.files_deleted} stored file(s) deleted); a confirmation mail is queued.`, '  kept apart, as the law requires:', ...kept]
        : [`Erasing ${plan.email} would remove:`, ...plan.goes.map((g) => `    ${g}`), '  and keep apart, as the law requires:', ...kept, 'Nothing was changed. Run again with --yes to erase.'];
    }
    case 'retention': {
      const body: Record<string, unknown> = { dry_run: command.dryRun };
      if (command.asOf) body.as_of = command.asOf;
      return retentionLines(await call<'runOpsRetention'>(settings, fetchImpl, 'POST', '/ops/retention', body));
    }
    case 'finalize': {
      const { item, dossier } = await call<'finalizeOpsDossier'>(settings, fetchImpl, 'POST', `${dossierRoute(command.dossier)}/finalize`, command.date ? { date: command.date } : {});
      return [`Dossier ${dossier.id} (${dossier.email}) finalized on ${item.date}.`, ...dossierLines(dossier)];
    }
  }
}
