package org.atomicshards.spring.boot;

import java.util.Set;

import jakarta.persistence.EntityManager;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.springframework.data.jpa.repository.support.JpaEntityInformation;
import org.springframework.data.jpa.repository.support.SimpleJpaRepository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The repository base class the auto-configuration installs: {@link SimpleJpaRepository}, except that
 * {@link #existsById} routes by id like {@code findById} does. Spring Data asks {@code existsById} with a count query
 * on the id, which names the shard key only when the id is the key; an id that encodes the key (a Snowflake id) is
 * routed here instead of fanning out. Everything else routes in the entity manager.
 *
 * <p>An application that declares its own {@code @EnableJpaRepositories} can keep this behaviour with
 * {@code repositoryBaseClass = ShardedJpaRepository.class}.
 */
@Transactional(readOnly = true)
public class ShardedJpaRepository<T, ID> extends SimpleJpaRepository<T, ID> {

    private final ShardedSessionFactory shards;

    public ShardedJpaRepository(JpaEntityInformation<T, ?> entityInformation, EntityManager entityManager) {
        super(entityInformation, entityManager);
        this.shards = entityManager.getEntityManagerFactory().unwrap(ShardedSessionFactory.class);
    }

    @Override
    public boolean existsById(ID id) {
        Set<ShardId> candidates = shards.shardsForId(getDomainClass(), id);
        if (candidates.isEmpty()) {
            return false;
        }
        return candidates.size() == 1 ? findById(id).isPresent() : super.existsById(id);
    }
}
