/**
 * "Verification with blockchain evidence" (spec section 1): for a file someone uploaded to the public
 * verification, the evidence log's records of it — the platform's signing acts whose output is exactly
 * this file, and the leaf of the verification itself — each with its inclusion proof against the latest
 * signed tree head and a proof bundle to download. Signing leaves are found through the private index of
 * file hashes (the public log shows only commitments, so it cannot be searched), and the uploader gets
 * the openings of the file-hash fields only: they hold the file, not the parties' identifiers.
 */
import { AppError, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { checkOpenings, FILE_HASH_FIELDS, type ProofBundleV2 } from '@openseal/evidence';
import type { EvidenceService } from '../evidence/evidence.service';
import type { VerifyService } from './verify.service';

type Record = contracts.FileEvidenceRecordDto;

/** The leaves whose output is the file: signing acts record the signed file as hashes.fileAfter. */
const OUTPUT_FIELD = ['hashes.fileAfter'] as const;
/** A file signed over and over again still lists a bounded number of acts. */
const MAX_SIGNING_RECORDS = 20;

function recordOf(bundle: ProofBundleV2): Record {
  const leaf = bundle.leaf?.v === 2 ? bundle.leaf : null;
  return {
    leafIndex: bundle.leafIndex,
    leafHash: bundle.leafHash,
    kind: leaf?.kind ?? null,
    leaf,
    opened: leaf ? checkOpenings(leaf, bundle.openings).opened : {},
    inclusionPath: bundle.inclusionPath,
    bundle: bundle as contracts.ProofBundleDto,
  };
}

export function createVerifyEvidence(deps: { verify: VerifyService; evidence: EvidenceService }) {
  const { evidence } = deps;

  /** The evidence of a kept verification report. Throws `verify.reportNotFound`. */
  async function evidenceOf(db: Db, reportId: string): Promise<contracts.VerifyEvidenceResponse> {
    const report = await deps.verify.getReport(db, reportId);
    const signing = await evidence.findByFileHash(report.sha256, OUTPUT_FIELD, MAX_SIGNING_RECORDS);
    // The verification leaf: everything it records is on the report already, except who verified.
    const own = await evidence.entry(report.evidenceIndex);
    const verifyFields = own.leaf ? Object.keys(own.leaf.c).filter((f) => f !== 'actor') : [];
    const { treeHead, bundles } = await evidence.bundlesUnderOneHead([
      ...signing.map((s) => ({ index: s.index, audience: { open: FILE_HASH_FIELDS } })),
      { index: report.evidenceIndex, audience: { open: verifyFields } },
    ]);
    const key = evidence.publicKey();
    return {
      reportId: report.reportId,
      sha256: report.sha256,
      treeHead,
      logKeyId: key.keyId,
      logPublicKey: key.spki,
      signing: bundles.slice(0, -1).map(recordOf),
      verification: recordOf(bundles.at(-1)!),
    };
  }

  /**
   * One bundle of a report's evidence, to download: only a leaf the report's evidence lists (its signing
   * acts or its verification). Throws `verify.reportNotFound` or `evidence.notInReport`.
   */
  async function bundleOf(db: Db, reportId: string, leafIndex: number): Promise<ProofBundleV2> {
    const answer = await evidenceOf(db, reportId);
    const found = [...answer.signing, answer.verification].find((r) => r.leafIndex === leafIndex);
    if (!found) throw new AppError('evidence.notInReport', { details: { leafIndex } });
    return found.bundle as ProofBundleV2;
  }

  return { evidenceOf, bundleOf };
}

export type VerifyEvidence = ReturnType<typeof createVerifyEvidence>;
