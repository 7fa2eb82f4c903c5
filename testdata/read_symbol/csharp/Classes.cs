using System;

namespace Shop.Domain
{
    /// <summary>A cart.</summary>
    [Serializable]
    public sealed class Cart : EntityBase, IDisposable
    {
        public const int MaxItems = 100;
        private static readonly string Currency = "EUR";

        public Cart() { }

        public Cart(int capacity) : this() { }

        public int Count { get; private set; }

        public void Add(Item item) { }

        public T Find<T>(Func<T, bool> match) where T : Item => default;

        public void Dispose() { }

        private class Line
        {
            public decimal Total() => 0m;
        }
    }
}
