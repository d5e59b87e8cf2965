import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../app-context.js';
import { membersOfGroups } from '../directory/group-membership.js';
import { etagOf } from '../directory/if-match.js';
import { listScimResources } from '../directory/list-scim-resources.js';
import type { ScimGroup } from '../directory/scim-group.entity.js';
import {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  patchScimGroup,
  replaceScimGroup,
} from '../directory/scim-group-service.js';
import { asyncHandler } from '../http/async-handler.js';
import { groupView } from './group-view.js';
import { listParams } from './list-params.js';
import { project } from './projection.js';
import { scimRequest } from './scim-request.js';
import { listResponse, patchStatus, sendScim } from './scim-response.js';

/** /Groups of a tenant's SCIM endpoint (RFC 7644 section 3). */
export function groupsRouter(ctx: Pick<AppContext, 'config' | 'issuance' | 'sql'>): Router {
  const router = Router({ mergeParams: true });
  const { base, call, tenant, id } = scimRequest(ctx);
  const views = async (req: Request, groups: ScimGroup[]) => {
    const members = await membersOfGroups(
      req.em,
      groups.map((g) => g.id),
    );
    return groups.map((g) =>
      project(
        groupView(g, base(req), members.get(g.id) ?? []),
        req.query.attributes,
        req.query.excludedAttributes,
      ),
    );
  };
  const answer = async (req: Request, res: Response, status: number, group: ScimGroup) => {
    res.setHeader('ETag', etagOf(group.version));
    if (status === 204) {
      res.status(204).end();
      return;
    }
    const [view] = await views(req, [group]);
    if (status === 201) res.setHeader('Location', `${base(req)}/Groups/${group.id}`);
    sendScim(res, status, view);
  };

  router.get(
    '/',
    asyncHandler(async (req, res) => {
      const params = listParams(req.query);
      const { total, items } = await listScimResources(req.em, 'Group', tenant(req), params);
      const resources = await views(req, items);
      sendScim(res, 200, listResponse(resources, total, params.startIndex));
    }),
  );
  router.get(
    '/:id',
    asyncHandler(async (req, res) => answer(req, res, 200, await getScimGroup(req.em, tenant(req), id(req)))),
  );
  router.post(
    '/',
    asyncHandler(async (req, res) => answer(req, res, 201, await createScimGroup(call(req), req.body))),
  );
  router.put(
    '/:id',
    asyncHandler(async (req, res) =>
      answer(req, res, 200, await replaceScimGroup(call(req), id(req), req.body, req.get('If-Match'))),
    ),
  );
  router.patch(
    '/:id',
    asyncHandler(async (req, res) =>
      answer(
        req,
        res,
        patchStatus(req),
        await patchScimGroup(call(req), id(req), req.body, req.get('If-Match')),
      ),
    ),
  );
  router.delete(
    '/:id',
    asyncHandler(async (req, res) => {
      await deleteScimGroup(call(req), id(req), req.get('If-Match'));
      res.status(204).end();
    }),
  );
  return router;
}
