// Workspace tags: listing with colours and counts, renaming (merging), recolouring and deleting everywhere.
import { AppError } from '../../errors.js';
import { automaticTagColor, isCssColor, normalizeTag } from '../../domain/tags.js';
import type { MessageIndex, MetadataStore } from '../../storage/ports.js';

export interface TagView {
  name: string;
  color: string;
  /** Whether the colour was chosen (false: automatic, derived from the name). */
  customColor: boolean;
  messageCount: number;
}

export class TagService {
  constructor(private readonly metadata: MetadataStore, private readonly messages: MessageIndex) {}

  async list(workspaceId: string): Promise<TagView[]> {
    const [counts, colors] = await Promise.all([this.messages.tagCounts(workspaceId), this.metadata.listTagColors(workspaceId)]);
    const names = [...new Set([...counts.keys(), ...colors.keys()])].sort();
    return names.map((name) => ({
      name,
      color: colors.get(name) ?? automaticTagColor(name),
      customColor: colors.has(name),
      messageCount: counts.get(name) ?? 0,
    }));
  }

  private async require(workspaceId: string, rawName: string): Promise<TagView> {
    const name = normalizeTag(rawName, 'name');
    const tag = (await this.list(workspaceId)).find((t) => t.name === name);
    if (!tag) throw new AppError('not_found', `no tag named '${rawName}'`);
    return tag;
  }

  /** Renames (merging into an existing tag of that name) and/or recolours; an empty colour means automatic. */
  async update(workspaceId: string, rawName: string, change: { name?: string; color?: string }): Promise<{ oldName: string; name: string; color: string }> {
    const tag = await this.require(workspaceId, rawName);
    const newName = change.name === undefined ? tag.name : normalizeTag(change.name, 'name');
    if (change.color !== undefined && change.color !== '' && !isCssColor(change.color)) {
      throw new AppError('invalid_request', `color: '${change.color}' is not a CSS colour (e.g. #ff8800, rebeccapurple, rgb(255 136 0)); send "" for the automatic colour`);
    }
    if (newName !== tag.name) {
      await this.messages.renameTag(workspaceId, tag.name, newName);
      await this.metadata.renameTagColor(workspaceId, tag.name, newName);
    }
    if (change.color !== undefined) await this.metadata.setTagColor(workspaceId, newName, change.color === '' ? null : change.color);
    const colors = await this.metadata.listTagColors(workspaceId);
    return { oldName: tag.name, name: newName, color: colors.get(newName) ?? automaticTagColor(newName) };
  }

  /** Removes the tag from every message; the messages stay. */
  async delete(workspaceId: string, rawName: string): Promise<string> {
    const tag = await this.require(workspaceId, rawName);
    await this.messages.change({ workspaceId, filter: { kind: 'tag', name: tag.name } }, { kind: 'remove_tags', tags: [tag.name] });
    await this.metadata.setTagColor(workspaceId, tag.name, null);
    return tag.name;
  }
}
