public abstract class Repository<TEntity, TKey> where TEntity : class
{
    protected abstract TEntity Load(TKey key);

    public virtual IEnumerable<TEntity> All() { yield break; }

    public static Repository<TEntity, TKey> Empty() => null;
}

public class Cache<T> : Repository<T, string> where T : class
{
    protected override T Load(string key) => null;
}
