import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../app-context.js';
import { type GroupRef, groupsOfUsers } from '../directory/group-membership.js';
import { etagOf } from '../directory/if-match.js';
import { listScimResources } from '../directory/list-scim-resources.js';
import type { ScimUser } from '../directory/scim-user.entity.js';
import { UserPageAnchors } from '../directory/scim-user-anchors.js';
import { scimUserPage } from '../directory/scim-user-page.js';
import {
  createScimUser,
  deleteScimUser,
  getScimUser,
  patchScimUser,
  replaceScimUser,
  type UserChange,
} from '../directory/scim-user-service.js';
import { type CredentialState, credentialStates } from '../directory/user-credential-state.js';
import { asyncHandler } from '../http/async-handler.js';
import { type ListParams, listParams } from './list-params.js';
import { asksFor, project } from './projection.js';
import { CREDENTIAL_EXTENSION_URN } from './schema/credential-extension.js';
import { scimRequest } from './scim-request.js';
import { listResponse, patchStatus, sendScim } from './scim-response.js';
import { userView } from './user-view.js';

/** /Users of a tenant's SCIM endpoint (RFC 7644 section 3): one handler per method. */
export function usersRouter(ctx: Pick<AppContext, 'config' | 'issuance' | 'sql'>): Router {
  const router = Router({ mergeParams: true });
  const { base, call, tenant, id } = scimRequest(ctx);
  const anchors = new UserPageAnchors();

  /**
   * The users' views; `known`: what the request that changed the one user knows already (a user it
   * created is a member of no group yet), so it is not read again.
   */
  async function views(
    req: Request,
    users: ScimUser[],
    issued?: string,
    known?: { state?: CredentialState | undefined; groups?: GroupRef[] | undefined },
  ) {
    const stored = asksFor(req.query.attributes, `${CREDENTIAL_EXTENSION_URN}:credential`);
    const ids = users.map((u) => u.id);
    const [groups, states] = await Promise.all([
      known?.groups ? new Map(ids.map((id) => [id, known.groups ?? []])) : groupsOfUsers(req.em, ids),
      known?.state
        ? new Map(ids.map((id) => [id, known.state as CredentialState]))
        : credentialStates(req.em, users),
    ]);
    return users.map((u) =>
      userView(u, base(req), {
        groups: groups.get(u.id) ?? [],
        credential: states.get(u.id) ?? { status: 'none', credentialIds: [] },
        issuedCredential: issued ?? (stored ? u.directCredential : undefined),
      }),
    );
  }

  /** A filtered or sorted list: the page, then its users' groups and credential states. */
  async function matching(req: Request, params: ListParams) {
    const { total, items } = await listScimResources(req.em, 'User', tenant(req), params);
    return { total, views: await views(req, items) };
  }

  /** An unfiltered page in creation order: everything its views need comes in one statement. */
  async function page(req: Request, params: ListParams) {
    const withCredential = asksFor(req.query.attributes, `${CREDENTIAL_EXTENSION_URN}:credential`);
    const { total, items } = await scimUserPage(ctx.sql, anchors, tenant(req), { ...params, withCredential });
    const url = base(req);
    return {
      total,
      views: items.map((i) =>
        userView(i.user, url, {
          groups: i.groups,
          credential: i.credential,
          issuedCredential: withCredential ? i.user.directCredential : undefined,
        }),
      ),
    };
  }

  const answer = async (req: Request, res: Response, status: number, change: UserChange) => {
    res.setHeader('ETag', etagOf(change.user.version));
    if (status === 204) {
      res.status(204).end();
      return;
    }
    const groups = status === 201 ? [] : change.groups;
    const [view] = await views(req, [change.user], change.sync.credential, { state: change.state, groups });
    if (status === 201) res.setHeader('Location', `${base(req)}/Users/${change.user.id}`);
    sendScim(res, status, project(view ?? {}, req.query.attributes, req.query.excludedAttributes));
  };

  router.get(
    '/',
    asyncHandler(async (req, res) => {
      const params = listParams(req.query);
      const { total, views } =
        params.filter || params.sortBy ? await matching(req, params) : await page(req, params);
      const resources = views.map((v) => project(v, req.query.attributes, req.query.excludedAttributes));
      sendScim(res, 200, listResponse(resources, total, params.startIndex));
    }),
  );
  router.get(
    '/:id',
    asyncHandler(async (req, res) => {
      const user = await getScimUser(req.em, tenant(req), id(req));
      const [view] = await views(req, [user]);
      res.setHeader('ETag', etagOf(user.version));
      sendScim(res, 200, project(view ?? {}, req.query.attributes, req.query.excludedAttributes));
    }),
  );
  router.post(
    '/',
    asyncHandler(async (req, res) => {
      await answer(req, res, 201, await createScimUser(call(req), req.body));
    }),
  );
  router.put(
    '/:id',
    asyncHandler(async (req, res) => {
      const change = await replaceScimUser(call(req), id(req), req.body, req.get('If-Match'));
      await answer(req, res, 200, change);
    }),
  );
  router.patch(
    '/:id',
    asyncHandler(async (req, res) => {
      const change = await patchScimUser(call(req), id(req), req.body, req.get('If-Match'));
      await answer(req, res, patchStatus(req), change);
    }),
  );
  router.delete(
    '/:id',
    asyncHandler(async (req, res) => {
      await deleteScimUser(call(req), id(req), req.get('If-Match'));
      res.status(204).end();
    }),
  );
  return router;
}
