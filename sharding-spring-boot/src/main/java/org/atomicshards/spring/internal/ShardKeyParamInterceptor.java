package org.atomicshards.spring.internal;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.atomicshards.hibernate.MissingShardKeyException;
import org.atomicshards.spring.ShardKeyParam;
import org.atomicshards.spring.ShardScopes;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Runs a method with a {@link ShardKeyParam} parameter inside a {@link ShardScopes} scope of that key's shard.
 */
final class ShardKeyParamInterceptor implements MethodInterceptor {

    private final Supplier<ShardScopes> scopes;
    private final Map<Method, KeyParameter> parameters = new ConcurrentHashMap<>();

    ShardKeyParamInterceptor(Supplier<ShardScopes> scopes) {
        this.scopes = scopes;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Class<?> targetClass = invocation.getThis() == null ? method.getDeclaringClass()
                : AopUtils.getTargetClass(invocation.getThis());
        KeyParameter parameter = parameters.computeIfAbsent(method, m -> find(m, targetClass));
        if (parameter == null) {
            return invocation.proceed();
        }
        Object key = invocation.getArguments()[parameter.index()];
        if (key == null) {
            throw new MissingShardKeyException("Cannot run " + method.getDeclaringClass().getSimpleName() + "."
                    + method.getName() + ": its @ShardKeyParam argument #" + parameter.index() + " is null, so it "
                    + "names no shard. Nothing was run. Fix: pass the unit's key");
        }
        ShardScopes current = scopes.get();
        try {
            return parameter.unit() == void.class
                    ? current.callInUnit(key, () -> proceed(invocation))
                    : current.callInUnit(parameter.unit(), key, () -> proceed(invocation));
        } catch (ProceedFailure failure) {
            throw failure.getCause();
        }
    }

    private static Object proceed(MethodInvocation invocation) {
        try {
            return invocation.proceed();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable checked) {
            throw new ProceedFailure(checked);
        }
    }

    /** The annotated parameter of {@code method} or of its most specific implementation; null when there is none. */
    static KeyParameter find(Method method, Class<?> targetClass) {
        KeyParameter declared = annotated(method);
        if (declared != null || targetClass == null) {
            return declared;
        }
        return annotated(AopUtils.getMostSpecificMethod(method, targetClass));
    }

    private static KeyParameter annotated(Method method) {
        var parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            ShardKeyParam annotation = AnnotatedElementUtils.findMergedAnnotation(parameters[i], ShardKeyParam.class);
            if (annotation != null) {
                return new KeyParameter(i, annotation.unit());
            }
        }
        return null;
    }

    record KeyParameter(int index, Class<?> unit) {
    }

    /** Carries a checked exception of the intercepted method through the scope's {@code Supplier}. */
    private static final class ProceedFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ProceedFailure(Throwable cause) {
            super(cause);
        }
    }
}
