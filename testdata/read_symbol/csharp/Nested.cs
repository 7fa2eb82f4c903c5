namespace Outer
{
    namespace Inner
    {
        static class Extensions
        {
            public static string Shout(this string s) => s.ToUpper();
        }
    }

    partial class Program
    {
        static void Main(string[] args)
        {
            int Square(int x) => x * x;
            Func<int, int> cube = x => x * x * x;
            Console.WriteLine(Square(3));
        }
    }
}
