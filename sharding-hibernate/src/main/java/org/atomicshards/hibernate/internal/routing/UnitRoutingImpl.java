package org.atomicshards.hibernate.internal.routing;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitRouting;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * The routing of one atomic unit: its root, key type, policy, placement and the precomputed key accessor of each
 * member entity type.
 */
public final class UnitRoutingImpl implements UnitRouting {

    private final Class<?> root;
    private final Class<?> keyType;
    private final String unitName;
    private final Policy policy;
    private final UnitPlacement placement;
    /** The placement's policy and topology, held here too: routing a key then loads one reference fewer. */
    private final SelectionPolicy selection;
    private final UnitTopology topology;
    private final Map<Class<?>, MemberKey> members;
    /** {@link #members} as the guards look them up at every write: the JDK's cache per class, no map probe. */
    private final ClassValue<MemberKey> memberKeys = new ClassValue<>() {
        @Override
        protected MemberKey computeValue(Class<?> type) {
            return members.get(type);
        }
    };
    private final String simpleName;
    private final CachedShardDirectory directory;
    private final KeyTextLimit textLimit;

    /**
     * @param textLimit what a {@code String} key must satisfy to be stored faithfully; null for other key types
     */
    public UnitRoutingImpl(Class<?> root, Class<?> keyType, Policy policy, UnitPlacement placement,
                           Map<Class<?>, MemberKey> members, CachedShardDirectory directory,
                           KeyTextLimit textLimit) {
        this.textLimit = textLimit;
        this.root = root;
        this.keyType = keyType;
        this.unitName = root.getName();
        this.simpleName = root.getSimpleName();
        this.policy = policy;
        this.placement = placement;
        this.selection = placement.policy();
        this.topology = placement.topology();
        this.members = Map.copyOf(members);
        this.directory = directory;
    }

    @Override
    public Class<?> root() {
        return root;
    }

    @Override
    public Class<?> keyType() {
        return keyType;
    }

    public String unitName() {
        return unitName;
    }

    /** The root's simple name, as messages and meters name the unit. */
    public String simpleName() {
        return simpleName;
    }

    public Policy policy() {
        return policy;
    }

    public UnitPlacement placement() {
        return placement;
    }

    /** The key accessor of a member type (or the root), or null if the type is not part of this unit. */
    public MemberKey memberKey(Class<?> type) {
        return memberKeys.get(type);
    }

    /** The member types, root included. */
    public Set<Class<?>> memberTypes() {
        return members.keySet();
    }

    @Override
    public String shardKeyPath(Class<?> memberType) {
        MemberKey key = members.get(memberType);
        if (key == null) {
            throw new IllegalArgumentException(memberType.getName() + " is not a member of unit " + unitName
                    + "; its members are " + members.keySet().stream().map(Class::getSimpleName).sorted().toList());
        }
        return key.path();
    }

    /**
     * Checks a key of this unit before it is used for anything: not null, of the unit's key type and, for a
     * {@code String} key, storable faithfully by the databases ({@link KeyTextLimit}).
     *
     * @return {@code key}
     * @throws org.atomicshards.hibernate.MissingShardKeyException if {@code key} is null
     * @throws UnroutableKeyException if the key does not fit the unit's key type
     * @throws org.atomicshards.hibernate.InvalidShardKeyException if a String key breaks a storage limit
     */
    public Object checkKey(Object key) {
        Object checked = ShardKeys.check(key, keyType, unitName);
        if (textLimit != null && checked instanceof String text) {
            textLimit.validate(text, unitName);
        }
        return checked;
    }

    /** The limits of a String key, or null for other key types. */
    public KeyTextLimit textLimit() {
        return textLimit;
    }

    /**
     * The shard of an existing unit's key, or null for a directory policy when the key was never placed.
     *
     * @throws org.atomicshards.hibernate.MissingShardKeyException if {@code key} is null
     * @throws org.atomicshards.hibernate.UnroutableKeyException if the key does not fit the unit
     * @throws org.atomicshards.hibernate.InvalidShardKeyException if a String key breaks a storage limit
     */
    public ShardId shardOf(Object key) {
        return ownerOf(checkKey(key));
    }

    /**
     * The shard of an existing unit's key that {@link #checkKey} has checked already, or null for a directory policy
     * when the key was never placed.
     */
    public ShardId ownerOf(Object checkedKey) {
        return selection.shardOf(checkedKey, topology);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A key of the right type that no shard can hold (outside every range of a RANGE policy, or never placed under
     * a directory policy) gives an empty set.
     */
    @Override
    public Set<ShardId> shardsForKey(Object key) {
        if (key == null) {
            throw new IllegalArgumentException("The key of unit " + unitName + " is null");
        }
        Object checked;
        try {
            checked = checkKey(key);
        } catch (UnroutableKeyException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        ShardId shard;
        try {
            shard = ownerOf(checked);
        } catch (UnroutableKeyException outsideEveryRange) {
            return Set.of();
        }
        return shard == null ? Set.of() : Set.of(shard);
    }

    @Override
    public Set<ShardId> shardsForRange(Comparable<?> lower, boolean lowerInclusive,
                                       Comparable<?> upper, boolean upperInclusive) {
        return placement.shardsForRange(lower, lowerInclusive, upper, upperInclusive)
                .<Set<ShardId>>map(LinkedHashSet::new)
                .orElseGet(() -> new LinkedHashSet<>(directory.dataShards()));
    }

    @Override
    public String toString() {
        return "Unit[" + unitName + ", key " + keyType.getSimpleName() + ", " + policy + "]";
    }
}
