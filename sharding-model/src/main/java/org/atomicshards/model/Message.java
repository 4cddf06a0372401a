package org.atomicshards.model;

import java.util.Locale;

/**
 * The one catalogue of diagnostics of Atomic Shards, shared by the annotation processor (build time) and the
 * runtime's model check (boot time). Each message has a stable code ({@code [SHARD-004]}) that users can search
 * for and that docs/build-time-checks.md documents, states the rule, and says how to fix it.
 *
 * <p>Codes never change meaning; a retired rule keeps its number unused.
 */
public enum Message {

    ROOT_WITHOUT_SHARD_KEY("SHARD-001", Severity.ERROR,
            "Atomic unit root %s has no @ShardKey attribute. Mark the attribute that holds the unit's key "
                    + "(usually the @Id) with @ShardKey."),
    MULTIPLE_SHARD_KEYS("SHARD-002", Severity.ERROR,
            "%s has %d @ShardKey attributes (%s), but an entity carries exactly one shard key. Keep @ShardKey on "
                    + "the one attribute that holds the root's key."),
    UNSUPPORTED_KEY_TYPE("SHARD-003", Severity.ERROR,
            "Shard key %s has type %s. A shard key must be an integral number (byte, short, int, long, their "
                    + "wrappers, BigInteger), String, UUID, or an @Embeddable of those. Change its type or put "
                    + "@ShardKey on another attribute."),
    MEMBER_WITHOUT_SHARD_KEY("SHARD-004", Severity.ERROR,
            "%s belongs to atomic unit %s (reached through %s) but does not carry the unit's shard key. Add an "
                    + "attribute of type %s marked @ShardKey that holds the root's key (or, when the root's id is "
                    + "the key, mark the @ManyToOne to %s with @ShardKey), or mark %s @ReferenceData if every unit "
                    + "shares it."),
    ASSOCIATION_TO_MEMBER_WITHOUT_KEY("SHARD-005", Severity.ERROR,
            "Association %s pulls %s into atomic unit %s, but %s does not carry the unit's shard key. Give it a "
                    + "@ShardKey attribute, mark it @ReferenceData, or remove the association."),
    KEY_TYPE_MISMATCH("SHARD-006", Severity.ERROR,
            "Shard key %s has type %s, but atomic unit %s is keyed by %s. Declare it as %s so that it holds the "
                    + "root's key."),
    KEY_ASSOCIATION_NOT_TO_ROOT("SHARD-007", Severity.ERROR,
            "@ShardKey association %s refers to %s, which is not the root of atomic unit %s. Put @ShardKey on a "
                    + "@ManyToOne to %s, or on a basic attribute that holds the root's key."),
    KEY_ASSOCIATION_ROOT_KEY_NOT_ID("SHARD-008", Severity.ERROR,
            "@ShardKey association %s refers to %s, whose shard key %s is not its id, so the foreign key does "
                    + "not hold the shard key. Store the key in a basic @ShardKey attribute of type %s."),
    KEY_WITHOUT_OWN_COLUMN("SHARD-009", Severity.ERROR,
            "@ShardKey on %s, a %s that stores no column in the entity's own table. A shard key is one value "
                    + "per row: put @ShardKey on a basic attribute or on the owning @ManyToOne to the root."),
    REACHABLE_FROM_TWO_UNITS("SHARD-010", Severity.ERROR,
            "%s is reachable from atomic unit %s (through %s) and from atomic unit %s (through %s), so its rows "
                    + "would have to live on two shards. Keep one association, replace the other with a plain "
                    + "attribute holding that unit's key, or mark %s @ReferenceData."),
    CROSS_UNIT_ASSOCIATION("SHARD-011", Severity.ERROR,
            "Association %s links atomic unit %s to %s of atomic unit %s, and the two units may live on "
                    + "different shards. Replace the association with a plain attribute holding the other unit's "
                    + "key (for example %s) and load that entity through its own unit."),
    REFERENCE_DATA_REFERS_TO_SHARDED("SHARD-012", Severity.ERROR,
            "Reference data %s refers to %s, which is sharded in atomic unit %s. Reference data is copied to "
                    + "every shard and cannot point at rows that live on one shard: remove the association (map it "
                    + "from the sharded side instead) or make %s reference data."),
    ENTITY_IN_NO_UNIT("SHARD-013", Severity.ERROR,
            "%s belongs to no atomic unit and is not reference data, so no shard owns its rows. Relate it to an "
                    + "@AtomicUnit root and give it a @ShardKey, make it a root with @AtomicUnit, or mark it "
                    + "@ReferenceData."),
    AMBIGUOUS_UNIT("SHARD-014", Severity.ERROR,
            "%s carries a @ShardKey of type %s, which keys several atomic units (%s), and no association ties it "
                    + "to one of them. Make its key a @ManyToOne @ShardKey to its root, or relate it to a member "
                    + "of its unit."),
    DATABASE_LOCAL_ID_GENERATOR("SHARD-015", Severity.ERROR,
            "%s generates its id (attribute %s) with %s, which every database counts on its own, so ids collide across "
                    + "shards. Assign ids, use UUIDs or a shard-safe generator, or use a composite id that "
                    + "includes the shard key."),
    MUTABLE_SHARD_KEY("SHARD-016", Severity.WARNING,
            "Shard key %s is mapped as updatable, but the runtime rejects any change to it at flush. Declare "
                    + "its column with updatable = false (@Column or @JoinColumn)."),
    ROOT_AND_REFERENCE_DATA("SHARD-017", Severity.ERROR,
            "%s is annotated both @AtomicUnit and @ReferenceData. A root lives on the shard that owns its key, "
                    + "reference data on every shard: keep one of the two."),
    SHARD_KEY_ON_REFERENCE_DATA("SHARD-018", Severity.ERROR,
            "@ShardKey on %s, but %s is reference data: it is copied to every shard and has no shard key. Remove "
                    + "@ShardKey, or remove @ReferenceData and make the entity a member of an atomic unit."),
    UNIT_ANNOTATION_ON_SUBCLASS("SHARD-019", Severity.ERROR,
            "@%s on %s, a subclass of entity %s. An entity hierarchy is stored together and lives in one "
                    + "place: put @%s on %s instead."),
    ANNOTATION_ON_NON_ENTITY("SHARD-020", Severity.ERROR,
            "@%s on %s, which is not an @Entity, so Hibernate does not map it. Put it on an entity class or add "
                    + "@Entity."),
    SHARD_KEY_OUTSIDE_PERSISTENT_TYPE("SHARD-021", Severity.ERROR,
            "@ShardKey on %s, whose class %s is not an @Entity, @MappedSuperclass or @Embeddable, so Hibernate "
                    + "never maps it. Put @ShardKey on an attribute of an entity."),
    SHARD_KEY_NOT_PERSISTENT("SHARD-022", Severity.ERROR,
            "@ShardKey on %s, which Hibernate does not map as a persistent attribute (%s). %s"),
    REFERENCE_DATA_DATABASE_ID("SHARD-023", Severity.ERROR,
            "Reference data %s generates its id (attribute %s) with %s, which every database counts on its own, so "
                    + "the copies of one row get different ids on different shards. Assign the id in the application "
                    + "before replicating (remove @GeneratedValue), or use a natural key such as a code as the id."),
    UNSUPPORTED_INDEX_TYPE("SHARD-024", Severity.ERROR,
            "@ShardIndex on %s, of type %s. An index compares values exactly and holds an integral number (byte, "
                    + "short, int, long, their wrappers, BigInteger), a String or a UUID. Index an attribute of one of "
                    + "those types, for example a normalised copy of the value (a lower-cased e-mail address)."),
    INDEX_NOT_ON_BASIC_ATTRIBUTE("SHARD-025", Severity.ERROR,
            "@ShardIndex on %s, %s. An index maps one column value to its unit: put @ShardIndex on a basic "
                    + "attribute of the entity (for an association, index the attribute of the entity it refers to)."),
    INDEX_ON_REFERENCE_DATA("SHARD-026", Severity.ERROR,
            "@ShardIndex on %s, but %s is reference data: every shard holds all of its rows, so any one shard "
                    + "answers a query on it. Remove @ShardIndex (a database index on the column speeds that query up)."),
    INDEX_ON_SHARD_KEY("SHARD-027", Severity.ERROR,
            "@ShardIndex on %s, the shard key of %s: a query on the key is already sent only to the shards that "
                    + "own it. Remove @ShardIndex."),
    INDEX_ON_COMPOSITE_KEY_UNIT("SHARD-028", Severity.ERROR,
            "@ShardIndex on %s, but atomic unit %s is keyed by the embedded value %s, and an index entry holds "
                    + "one key value. Index attributes of units keyed by an integral number, String or UUID, or "
                    + "remove @ShardIndex."),
    INTERNAL_ERROR("SHARD-900", Severity.ERROR,
            "Atomic Shards could not check %s because of an internal error: %s. Please report it at "
                    + "https://github.com/atomic-shards/atomic-shards/issues with this message.");

    private final String code;
    private final Severity severity;
    private final String template;

    Message(String code, Severity severity, String template) {
        this.code = code;
        this.severity = severity;
        this.template = template;
    }

    /** The stable code, e.g. {@code SHARD-004}. */
    public String code() {
        return code;
    }

    public Severity severity() {
        return severity;
    }

    /** The {@link String#format(String, Object...) format} string, without the code. */
    public String template() {
        return template;
    }

    /** The message with its code in front: {@code [SHARD-004] com.acme.Order belongs to ...}. */
    public String format(Object... args) {
        return "[" + code + "] " + String.format(Locale.ROOT, template, args);
    }
}
