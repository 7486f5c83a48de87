import { AppError, checkOrgName, checkUscc, REAL_NAME_STATUS, type Check } from '@openseal/core';
import { isUniqueViolation, type Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { recordAudit } from '../audit/audit.repository';
import * as repo from './organizes.repository';

export type Membership = Awaited<ReturnType<typeof repo.listMemberships>>[number];

function mustBe(check: Check): string {
  if (!check.ok) throw new AppError(check.key);
  return check.value;
}

export function createOrganizesService() {
  return {
    memberships: (db: Db, personId: string) => repo.listMemberships(db, personId),
    membership: (db: Db, personId: string, organizationId: string) =>
      repo.findMembership(db, personId, organizationId),
    findLive: (db: Db, organizationId: string) => repo.findLiveOrg(db, organizationId),
    /** An active member of an organisation (by member id or mobile), or undefined: outsiders are not. */
    activeMember: (db: Db, organizationId: string, by: { memberId: string } | { mobile: string }) =>
      repo.findActiveMember(db, organizationId, by),

    /**
     * Section 5 duplicate checks: true when the value is taken. An organisation without a valid super
     * administrator is not taken but claimable (creation answers status 1 and leads into real-name), so
     * neither its name nor its credit code blocks the form.
     */
    async isTaken(
      db: Db,
      q: { organizeName?: string | undefined; uscc?: string | undefined },
    ): Promise<boolean> {
      const org =
        q.organizeName !== undefined
          ? await repo.findLiveOrgBy(db, 'name', q.organizeName.trim())
          : await repo.findLiveOrgBy(db, 'uscc', (q.uscc ?? '').trim());
      return org !== undefined && (await repo.hasActiveSuperAdmin(db, org.id));
    },

    /**
     * Creates an organisation with the caller as its super administrator (status 0), or, when the
     * credit code belongs to an organisation that has no valid super administrator, answers status 1 so
     * the caller can take it over through organisation real-name.
     */
    async create(db: Db, input: { personId: string; organizeName: string; uscc: string; ip: string | null }) {
      const name = mustBe(checkOrgName(input.organizeName));
      const uscc = mustBe(checkUscc(input.uscc));
      return db.transaction().execute(async (trx) => {
        const byUscc = await repo.findLiveOrgBy(trx, 'uscc', uscc);
        if (byUscc) {
          if (await repo.hasActiveSuperAdmin(trx, byUscc.id)) throw new AppError('org.usccExists');
          await recordAudit(trx, {
            actorPersonId: input.personId,
            organizationId: byUscc.id,
            action: 'organization.claimOffered',
            targetType: 'organization',
            targetId: byUscc.id,
            ip: input.ip,
          });
          return { status: 1 as const, organizationId: byUscc.id, memberId: null };
        }
        if (await repo.findLiveOrgBy(trx, 'name', name)) throw new AppError('org.nameExists');
        const organizationId = newId('org');
        const memberId = newId('mbr');
        try {
          await repo.insertOrg(trx, { id: organizationId, name, uscc, createdBy: input.personId });
          await repo.insertMember(trx, {
            id: memberId,
            organizationId,
            personId: input.personId,
            roles: ['superAdmin'],
          });
        } catch (e) {
          if (isUniqueViolation(e, 'organizations_name_live')) throw new AppError('org.nameExists');
          if (isUniqueViolation(e, 'organizations_uscc_live')) throw new AppError('org.usccExists');
          throw e;
        }
        await recordAudit(trx, {
          actorPersonId: input.personId,
          organizationId,
          action: 'organization.create',
          targetType: 'organization',
          targetId: organizationId,
          ip: input.ip,
          detail: { name, uscc },
        });
        return { status: 0 as const, organizationId, memberId };
      });
    },

    /**
     * Deletes (soft) an unverified organisation that is not the caller's current space. Only its super
     * administrator may; every session inside it ends.
     */
    async remove(
      db: Db,
      input: {
        personId: string;
        organizationId: string;
        currentOrganizationId: string | null;
        ip: string | null;
      },
      onRemoved: (trx: Db) => Promise<void>,
    ) {
      await db.transaction().execute(async (trx) => {
        const m = await repo.findMembership(trx, input.personId, input.organizationId);
        if (!m) throw new AppError('org.notFound');
        if (input.organizationId === input.currentOrganizationId) throw new AppError('org.deleteCurrent');
        if (m.real_name_status === REAL_NAME_STATUS.verified) throw new AppError('org.deleteVerified');
        if (!m.roles.includes('superAdmin') && !m.roles.includes('legalPerson'))
          throw new AppError('perm.contactAdmin');
        if (!(await repo.softDeleteOrg(trx, input.organizationId))) throw new AppError('org.notFound');
        await onRemoved(trx);
        await recordAudit(trx, {
          actorPersonId: input.personId,
          organizationId: input.organizationId,
          action: 'organization.delete',
          targetType: 'organization',
          targetId: input.organizationId,
          ip: input.ip,
        });
      });
    },
  };
}

export type OrganizesService = ReturnType<typeof createOrganizesService>;
