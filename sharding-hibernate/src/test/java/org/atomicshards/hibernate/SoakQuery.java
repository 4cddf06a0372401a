package org.atomicshards.hibernate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.atomicshards.hibernate.model.User;
import org.hibernate.Session;
import org.hibernate.query.SelectionQuery;

/**
 * One fan-out query of the soak test over the units whose keys lie in {@code [from, to]}: a shape (counts, sums,
 * minima and maxima, groups with HAVING, ordered pages of roots, members and entities; every ORDER BY total, so that
 * a page is defined) and a page ({@code max} 0: all rows). The same HQL runs on the shards and on the oracle.
 */
record SoakQuery(String hql, long from, long to, int first, int max) {

    static final List<String> SHAPES = List.of(
            "select count(u) from User u where u.id between :from and :to",
            "select count(s), min(s.user.id), max(s.user.id) from Status s where s.user.id between :from and :to",
            "select sum(p.userId), count(p), min(p.id), max(p.id) from Photo p where p.userId between :from and :to",
            "select u.id, u.email from User u where u.id between :from and :to order by u.id desc",
            "select u from User u where u.id between :from and :to order by u.email, u.id",
            "select p.id, p.userId, p.blobUrl from Photo p where p.userId between :from and :to "
                    + "order by p.userId, p.id",
            "select s.id, s.user.id from Status s where s.user.id between :from and :to order by s.user.id desc, s.id",
            "select s.user.id, count(s) from Status s where s.user.id between :from and :to group by s.user.id "
                    + "order by count(s) desc, s.user.id",
            "select p.userId, count(p), sum(p.id) from Photo p where p.userId between :from and :to "
                    + "group by p.userId having count(p) > 1 order by p.userId desc");

    /** A random shape over a random range of {@code [low, high]}, paged half of the time. */
    static SoakQuery random(Random random, long low, long high) {
        String hql = SHAPES.get(random.nextInt(SHAPES.size()));
        long from = random.nextInt(4) == 0 ? low : low + random.nextInt((int) (high - low));
        long to = random.nextInt(4) == 0 ? high : from + random.nextInt((int) (high - from + 1));
        boolean paged = hql.contains("order by") && random.nextBoolean();
        return paged ? new SoakQuery(hql, from, to, random.nextInt(30), 1 + random.nextInt(25))
                : new SoakQuery(hql, from, to, 0, 0);
    }

    /** Every shape over {@code [low, high]}, unpaged. */
    static List<SoakQuery> all(long low, long high) {
        return SHAPES.stream().map(hql -> new SoakQuery(hql, low, high, 0, 0)).toList();
    }

    /** The normalized result of a fan-out over the shards. */
    List<Object> onShards(ShardedSessionFactory shards) {
        ShardedQuery<Object> query = shards.fanOut().createQuery(hql, Object.class).setParameter("from", from)
                .setParameter("to", to);
        if (max > 0) {
            query.setFirstResult(first).setMaxResults(max);
        }
        return normalize(query.getResultList());
    }

    /** The normalized result on one database, through a plain Hibernate session. */
    List<Object> on(Session session) {
        SelectionQuery<Object> query = session.createSelectionQuery(hql, Object.class).setParameter("from", from)
                .setParameter("to", to);
        if (max > 0) {
            query.setFirstResult(first).setMaxResults(max);
        }
        return normalize(query.getResultList());
    }

    /**
     * Rows as comparable values: tuples become lists, a {@code User} its id and email, a number its Java type and
     * value (a merged result of another type than the database's is a difference), decimals without trailing zeros.
     */
    static List<Object> normalize(List<?> rows) {
        List<Object> normalized = new ArrayList<>(rows.size());
        for (Object row : rows) {
            normalized.add(value(row));
        }
        return normalized;
    }

    private static Object value(Object value) {
        if (value instanceof Object[] tuple) {
            return normalize(Arrays.asList(tuple));
        }
        if (value instanceof User user) {
            return "User#" + user.getId() + ":" + user.getEmail();
        }
        if (value instanceof BigDecimal decimal) {
            return "BigDecimal:" + (decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString());
        }
        if (value instanceof Number number) {
            return number.getClass().getSimpleName() + ":" + number;
        }
        return value == null ? null : SoakTable.idText(value);
    }

    @Override
    public String toString() {
        return hql + " [" + from + ", " + to + "]" + (max > 0 ? " offset " + first + " limit " + max : "");
    }
}
