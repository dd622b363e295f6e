package dev.cachegateway.gateway.cache.format;

import dev.cachegateway.gateway.cache.policy.StoredFreshness;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.ItemTags;

/**
 * An item read by its format, with all that a hit on it needs that does not change from
 * hit to hit. It depends on the item's bytes and flags alone, so one reading serves every
 * hit on the same version of the item
 * ({@link dev.cachegateway.gateway.cache.hit.DecodedItems}): the parse, the freshness
 * headers and the ETag's digest are paid once, not per hit.
 *
 * @param stored the answer as the item holds it
 * @param hitHeaders the headers its hits send, its ETag among them
 * @param freshness what its stored headers say of its freshness;
 * {@link StoredFreshness#NONE} for a body
 * @param tags the tags it was stored with; {@link ItemTags#NONE} for a body
 */
public record DecodedItem(CapturedResponse stored, HitHeaders hitHeaders, StoredFreshness freshness, ItemTags tags) {
}
