package org.atomicshards.hibernate.internal.topology;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.metamodel.Attribute;
import jakarta.persistence.metamodel.EntityType;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.ReferenceDataDivergence;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.StatelessSession;
import org.hibernate.Transaction;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Copies {@code @ReferenceData} rows to a new shard and compares them between shards, through Hibernate stateless
 * sessions (queries name entities from the mapping model only; every value is bound). Entities are copied in
 * foreign-key order (an entity referenced by another reference entity first), each with its own id
 * ({@code upsert}, so a generated id is kept as it is).
 */
final class ReferenceDataCopier {

    private final SessionFactoryImplementor sessionFactory;
    private final List<Class<?>> types;

    /** @param referenceTypes every {@code @ReferenceData} entity class */
    ReferenceDataCopier(SessionFactoryImplementor sessionFactory, Collection<Class<?>> referenceTypes) {
        this.sessionFactory = sessionFactory;
        this.types = inForeignKeyOrder(sessionFactory, rootsOnly(sessionFactory, referenceTypes));
    }

    /**
     * Copies every reference entity whose table is empty on {@code target} from {@code source}.
     *
     * @return rows copied per entity name; an entity that already had rows on the target is absent
     */
    Map<String, Long> copyWhereEmpty(ShardId source, ShardId target) {
        Map<String, Long> copied = new LinkedHashMap<>();
        for (Class<?> type : types) {
            String entity = entityName(type);
            if (count(target, entity) > 0) {
                continue;
            }
            List<?> rows = read(source, type);
            ShardBinding.replicating(sessionFactory, () -> {
                try (StatelessSession session = sessionFactory.withStatelessOptions().tenantIdentifier(target)
                        .openStatelessSession()) {
                    Transaction transaction = session.beginTransaction();
                    try {
                        rows.forEach(session::upsert);
                        transaction.commit();
                    } catch (RuntimeException e) {
                        if (transaction.isActive()) {
                            transaction.rollback();
                        }
                        throw e;
                    }
                }
            });
            copied.put(entity, (long) rows.size());
        }
        return copied;
    }

    /** The reference entities whose rows are not identical on every one of {@code shards}. */
    List<ReferenceDataDivergence> divergences(List<ShardId> shards) {
        List<ReferenceDataDivergence> divergences = new ArrayList<>();
        for (Class<?> type : types) {
            Map<String, List<ShardId>> byContent = new LinkedHashMap<>();
            Map<String, Long> rowsOf = new LinkedHashMap<>();
            for (ShardId shard : shards) {
                List<?> rows = read(shard, type);
                String fingerprint = fingerprint(type, rows);
                byContent.computeIfAbsent(fingerprint, f -> new ArrayList<>()).add(shard);
                rowsOf.put(fingerprint, (long) rows.size());
            }
            if (byContent.size() > 1) {
                List<ReferenceDataDivergence.Group> groups = new ArrayList<>();
                byContent.forEach((fingerprint, members) ->
                        groups.add(new ReferenceDataDivergence.Group(members, rowsOf.get(fingerprint))));
                groups.sort((a, b) -> Integer.compare(b.shards().size(), a.shards().size()));
                divergences.add(new ReferenceDataDivergence(entityName(type), groups));
            }
        }
        return divergences;
    }

    private String entityName(Class<?> type) {
        return sessionFactory.getMappingMetamodel().getEntityDescriptor(type).getEntityName();
    }

    private long count(ShardId shard, String entity) {
        return reading(shard, session ->
                session.createSelectionQuery("select count(*) from " + entity, Long.class).getSingleResult());
    }

    private List<?> read(ShardId shard, Class<?> type) {
        return reading(shard, session -> session.createSelectionQuery("from " + entityName(type), type).getResultList());
    }

    /**
     * Runs a read in a read-only transaction that is rolled back: the connection's read-only flag is reset at
     * release only outside a transaction (PostgreSQL refuses to change it inside one).
     */
    private <R> R reading(ShardId shard, java.util.function.Function<StatelessSession, R> read) {
        try (StatelessSession session = sessionFactory.withStatelessOptions().tenantIdentifier(shard).readOnly(true)
                .openStatelessSession()) {
            Transaction transaction = session.beginTransaction();
            try {
                return read.apply(session);
            } finally {
                transaction.rollback();
            }
        }
    }

    /** A digest of the rows' ids and values, independent of the order they were read in. */
    private String fingerprint(Class<?> type, List<?> rows) {
        EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(type);
        List<String> lines = new ArrayList<>(rows.size());
        for (Object row : rows) {
            EntityPersister concrete = sessionFactory.getMappingMetamodel().getEntityDescriptor(row.getClass());
            StringBuilder line = new StringBuilder(concrete.getEntityName()).append('|')
                    .append(text(sessionFactory.getPersistenceUnitUtil().getIdentifier(row)));
            for (Object value : concrete.getValues(row)) {
                line.append('|').append(text(value));
            }
            lines.add(line.toString());
        }
        lines.sort(null);
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(persister.getEntityName().getBytes(StandardCharsets.UTF_8));
            for (String line : lines) {
                digest.update(line.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    /** A value as text: an entity (or proxy) as its id, a collection left out, an array by its elements. */
    private String text(Object value) {
        if (value == null) {
            return "\u2400";
        }
        if (value instanceof Collection<?> || value instanceof Map<?, ?>) {
            return "";
        }
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof Object[] array) {
            return Arrays.deepToString(array);
        }
        if (sessionFactory.getMappingMetamodel().isEntityClass(org.hibernate.Hibernate.getClass(value))) {
            return String.valueOf(sessionFactory.getPersistenceUnitUtil().getIdentifier(value));
        }
        return value.toString();
    }

    /** Only the root of each reference-data hierarchy: a query on the root returns its subclasses' rows too. */
    private static List<Class<?>> rootsOnly(SessionFactoryImplementor sessionFactory, Collection<Class<?>> types) {
        List<Class<?>> roots = new ArrayList<>();
        for (Class<?> type : types) {
            EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(type);
            if (persister.getRootEntityName().equals(persister.getEntityName())) {
                roots.add(type);
            }
        }
        roots.sort((a, b) -> a.getName().compareTo(b.getName()));
        return roots;
    }

    /** Referenced entities before the entities that reference them (to-one associations between the types). */
    private static List<Class<?>> inForeignKeyOrder(SessionFactoryImplementor sessionFactory, List<Class<?>> types) {
        Map<Class<?>, Set<Class<?>>> dependsOn = new LinkedHashMap<>();
        for (Class<?> type : types) {
            Set<Class<?>> targets = new LinkedHashSet<>();
            EntityType<?> entity = sessionFactory.getJpaMetamodel().entity(type);
            for (Attribute<?, ?> attribute : entity.getAttributes()) {
                if (attribute.getPersistentAttributeType() == Attribute.PersistentAttributeType.MANY_TO_ONE
                        || attribute.getPersistentAttributeType() == Attribute.PersistentAttributeType.ONE_TO_ONE) {
                    for (Class<?> candidate : types) {
                        if (candidate != type && candidate.isAssignableFrom(attribute.getJavaType())) {
                            targets.add(candidate);
                        }
                    }
                }
            }
            dependsOn.put(type, targets);
        }
        List<Class<?>> ordered = new ArrayList<>();
        Set<Class<?>> visiting = new LinkedHashSet<>();
        for (Class<?> type : types) {
            visit(type, dependsOn, ordered, visiting);
        }
        return ordered;
    }

    private static void visit(Class<?> type, Map<Class<?>, Set<Class<?>>> dependsOn, List<Class<?>> ordered,
                              Set<Class<?>> visiting) {
        if (ordered.contains(type) || !visiting.add(type)) {
            return; // done, or a cycle: its foreign keys must then be deferrable or nullable
        }
        for (Class<?> target : dependsOn.get(type)) {
            visit(target, dependsOn, ordered, visiting);
        }
        ordered.add(type);
    }
}
