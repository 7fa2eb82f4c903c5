public static class Limits
{
    public const int MaxDepth = 32;
    internal const string Name = "limits", Alias = "lim";
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(5);

    public static int Clamp(int v)
    {
        const int Local = 3;
        return v > MaxDepth ? MaxDepth : v;
    }
}
