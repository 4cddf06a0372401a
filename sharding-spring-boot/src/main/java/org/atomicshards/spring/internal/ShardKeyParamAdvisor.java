package org.atomicshards.spring.internal;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.atomicshards.spring.ShardScopes;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.Ordered;

/**
 * Applies {@link org.atomicshards.spring.ShardKeyParam} to every bean method with an annotated parameter. Ordered
 * before Spring's transaction advisor (which defaults to {@link Ordered#LOWEST_PRECEDENCE}), so the shard is pinned
 * before the transaction's entity manager is created.
 */
public final class ShardKeyParamAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    /** The default order: before the transaction advisor and anything ordered close to it. */
    public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

    private final transient ShardKeyParamInterceptor interceptor;
    private final transient Pointcut pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return ShardKeyParamInterceptor.find(method, targetClass) != null;
        }
    };

    public ShardKeyParamAdvisor(Supplier<ShardScopes> scopes, int order) {
        this.interceptor = new ShardKeyParamInterceptor(scopes);
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
